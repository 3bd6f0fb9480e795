// STUB: replaced by the reference kernels of this family.
#include <stdexcept>
#include "kernels/reference.h"
namespace edgesim {
}  // namespace edgesim
