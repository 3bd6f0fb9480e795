// STUB: replaced by the tiler.
#include "compiler/tiler/policy.h"
