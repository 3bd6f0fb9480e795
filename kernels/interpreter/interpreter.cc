// STUB
#include "kernels/interpreter/interpreter.h"
#include <stdexcept>
namespace edgesim {
InterpreterResult interpret(const Graph&, const std::vector<Tensor>&, const InterpreterOptions&) {
  throw std::logic_error("interpreter: not implemented");
}
}  // namespace edgesim
