// The reference (golden) kernels: pure, readable, bit-exact functions over Views.
// One implementation file per op family (kernels/<family>/reference.cc). Inputs are read,
// the output view is fully written; views may be strided (tiles) and of any integer dtype.
// Values written must fit the output dtype: the caller (graph) chooses dtype and rq.lo/hi so
// that they do; kernels clamp only as their params say.
#pragma once
#include <vector>

#include "kernels/conv/params.h"
#include "kernels/core/requant.h"
#include "kernels/core/tensor.h"
#include "kernels/eltwise/params.h"
#include "kernels/gemm/params.h"
#include "kernels/layout/params.h"
#include "kernels/pool/params.h"
#include "kernels/quant/params.h"
#include "kernels/act/params.h"
#include "kernels/fakequant/params.h"
#include "kernels/norm/params.h"
#include "kernels/reduce/params.h"
#include "kernels/softmax/params.h"

namespace edgesim {

// x [N,Cin,H,W], w [Cout,Cin/g,kh,kw] -> y [N,Cout,Ho,Wo]
void conv_reference(const ConvParams& p, const View& x, const View& w, const View& y,
                    ArithMode mode = ArithMode::Exact);
// a [...,M,K], b [...,K,N] (transposes per params) -> y [...,M,N]
void gemm_reference(const GemmParams& p, const View& a, const View& b, const View& y,
                    ArithMode mode = ArithMode::Exact);
void add_reference(const AddParams& p, const View& a, const View& b, const View& y,
                   ArithMode mode = ArithMode::Exact);
void mul_reference(const MulParams& p, const View& a, const View& b, const View& y,
                   ArithMode mode = ArithMode::Exact);
void clip_reference(const ClipParams& p, const View& x, const View& y);
void requant_reference(const RequantParams& p, const View& x, const View& y,
                       ArithMode mode = ArithMode::Exact);
// x [N,C,H,W] -> y [N,C,Ho,Wo]
void pool_reference(const PoolParams& p, const View& x, const View& y,
                    ArithMode mode = ArithMode::Exact);
void pad_reference(const PadParams& p, const View& x, const View& y);
void concat_reference(const ConcatParams& p, const std::vector<View>& xs, const View& y);
void reshape_reference(const View& x, const View& y);
void transpose_reference(const TransposeParams& p, const View& x, const View& y);
void quantize_reference(const QuantizeParams& p, const View& x, const View& y);
void dequantize_reference(const DequantizeParams& p, const View& x, const View& y);
// Transformer ops (docs/dialects.md "Deeploy transformer ops"): rows along the last axis for
// softmax and norms.
void softmax_reference(const SoftmaxParams& p, const View& x, const View& y);
void norm_reference(const NormParams& p, const View& x, const View& y);
void act_reference(const ActParams& p, const View& x, const View& y, ArithMode mode = ArithMode::Exact);
void mean_reference(const MeanParams& p, const View& x, const View& y);
Shape mean_output_shape(const MeanParams& p, const Shape& x);
void gather_reference(const GatherParams& p, const View& x, const View& y);
void float_chain_reference(const FloatChainParams& p, const View& x, const View& y);

}  // namespace edgesim
