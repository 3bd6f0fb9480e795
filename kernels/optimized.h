// Optimised int8 kernels, beside the reference ones (kernels/reference.h) in the way
// tflite-micro keeps kernels/internal/reference/ and kernels/internal/optimized/ [85]: the same
// params and views, the same bits, faster. Operands are gathered once into dense int16
// buffers (zero point removed) in the layout the inner loop wants (channels last for
// convolutions, K last for matrix products), accumulated in int32, requantised per channel
// with the same ChannelRequant as the reference, and stored with the same range check.
//
// Each function returns false, having written nothing, when its fast path does not apply:
// an operand that is not 8-bit (U8 / I8), an accumulator that could leave int32 for the
// operand dtypes, zero points and bias (K·max|x−zx|·max|w−zw| + max|bias| > 2^31 − 1), a
// broadcast it does not handle, or shapes the reference would reject. It also returns false
// when a result does not fit y's dtype (earlier batch items may then be written). The caller
// then runs the reference kernel, which computes the same values and reports every error, and
// stays the oracle: tests/kernels/optimized_test.cc checks every
// kernel here bit-exactly against it on random shapes, dtypes, zero points and requants.
#pragma once

#include "kernels/conv/params.h"
#include "kernels/core/requant.h"
#include "kernels/core/tensor.h"
#include "kernels/eltwise/params.h"
#include "kernels/gemm/params.h"
#include "kernels/pool/params.h"

namespace edgesim {

// Conv: depthwise (groups = Cin = Cout), pointwise (1x1, stride 1, no padding, groups 1) and
// the general direct convolution; x [N,Cin,H,W], w [Cout,Cin/g,kh,kw] -> y [N,Cout,Ho,Wo].
bool conv_optimized(const ConvParams& p, const View& x, const View& w, const View& y,
                    ArithMode mode = ArithMode::Exact);
// Matrix product a [...,M,K] x b [...,K,N] (transposes per params) -> y [...,M,N].
bool gemm_optimized(const GemmParams& p, const View& a, const View& b, const View& y,
                    ArithMode mode = ArithMode::Exact);
// Max and sum pooling, x [N,C,H,W] -> y [N,C,Ho,Wo] (x of any integer dtype up to 16 bits).
bool pool_optimized(const PoolParams& p, const View& x, const View& y, ArithMode mode = ArithMode::Exact);
// Add of two tensors of the output's shape (no broadcast), integer dtypes up to 32 bits.
bool add_optimized(const AddParams& p, const View& a, const View& b, const View& y,
                   ArithMode mode = ArithMode::Exact);

}  // namespace edgesim
