// The tune context of the CLI and the Python module (compiler/tune/context.h): the tune cache at
// default_tune_cache_path(), K = 8, one worker, the objective cycles, and the SystemC model
// simulating each layer's candidates (SimulatingEvaluator) and the network plans
// (NetSimEvaluator). Each command or call builds its own and may change any field.
#pragma once
#include "compiler/tune/context.h"

namespace edgesim {

TuneContext simulating_tune_context();

}  // namespace edgesim
