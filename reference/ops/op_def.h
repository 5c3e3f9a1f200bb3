#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "reference/core/tensor.h"
#include "reference/ops/attrs.h"
#include "reference/ops/schema.h"
#include "reference/random/philox.h"

namespace funcspec::transforms {
struct OpRules;
}

namespace funcspec {

// NOTE: [op kinds]
//   Primitive       computed by a kernel per backend; has its own transform rules.
//   Composite       written only in terms of other ops (decompose); every rule comes for free, so
//                   it must be composite-compliant: no data access, no item(), no out=, no
//                   in-place writes to its inputs, no metadata changes outside the op layer.
//   View            shares its input's storage; only shape, strides and offset change.
//   InPlace         writes into the inputs its schema marks `Tensor(a!)`: its first, which it returns,
//                   or (batch_norm, instance_norm) the running statistics it updates beside its
//                   result (NOTE: [running statistics] in normalization.cpp). All but copy_ decompose:
//                   the functional op computes the result, then copy_ writes it (see variants.cpp).
//   OutVariant      writes its result into the `out` argument and returns it; derived likewise.
//   Random          draws from the current generator (NOTE: [random streams]).
//   DynamicShape    the output shape depends on input values (nonzero, masked_select).
//   ScalarExtraction turns a one-element tensor into a host value (item, is_nonzero).
//   Custom           a function with its own transform rules (NOTE: [custom functions]): where no
//                    transform is visible it runs its forward (decompose); a transform sees it whole,
//                    as one op, and uses the rules made from the user's definition.
enum class OpKind { Primitive, Composite, View, InPlace, OutVariant, Random, DynamicShape, ScalarExtraction, Custom };

std::string_view op_kind_name(OpKind kind);

struct TensorMeta {
  Shape shape;
  DType dtype;
};

struct ViewGeometry {
  Shape shape;
  Strides strides;
  std::int64_t offset;
};

// What a kernel sees: canonical inputs (already promoted and broadcast by the op layer), bound
// attributes, and outputs allocated from the inferred metadata (a DynamicShape or
// ScalarExtraction kernel allocates its outputs itself; an in-place primitive's output is its
// first input).
struct KernelArgs {
  const TensorList& inputs;
  const Attrs& attrs;
  TensorList& outputs;
  const random::PhiloxStream* random = nullptr;
};

using DecomposeFn = std::function<TensorList(const TensorList& inputs, const Attrs& attrs)>;
using CanonicalizeFn = std::function<TensorList(const TensorList& inputs, const Attrs& attrs)>;
using InferFn = std::function<std::vector<TensorMeta>(const TensorList& inputs, const Attrs& attrs)>;
using KernelFn = std::function<void(const KernelArgs& args)>;
using ViewFn = std::function<std::vector<ViewGeometry>(const Tensor& input, const Attrs& attrs)>;
using RandomDrawsFn = std::function<std::uint64_t(const TensorList& inputs, const Attrs& attrs)>;

struct OpDef {
  OpSchema schema;
  OpKind kind = OpKind::Primitive;
  std::string family;   // unary, binary, reduce, linalg, scan, view, index, random, creation, loss, ...
  std::string summary;  // one line of semantics, shown by `funcspec ops`
  bool random = false;  // draws random numbers, directly or through what it decomposes into
  // Ask register_variant_ops to derive `name_` (writes into self) and `name.out` (writes into out).
  bool derive_inplace = false;
  bool derive_out = false;
  // For derived variants: the functional op they compute with.
  std::string functional;

  // Composite, and derived InPlace / OutVariant ops; for Custom, its forward.
  DecomposeFn decompose;
  // Primitive, Random, DynamicShape, ScalarExtraction, and the in-place primitive copy_.
  CanonicalizeFn canonicalize;  // the op layer: promotion and broadcasting, as op calls
  InferFn infer;                // output metadata and argument checks; must not read data
  KernelFn cpu_kernel;
  KernelFn cuda_kernel;        // FUNCSPEC_CUDA_KERNEL below: empty in a build without the CUDA backend
  RandomDrawsFn random_draws;  // blocks drawn; default: the total numel of the outputs
  // View.
  ViewFn view;
  // What transforms apply to the op when they see it whole (NOTE: [op rules] in
  // transforms/op_rules.h): its batching, jvp and transpose rules. Attached by the op's family in
  // reference/rules/, or made from a custom function's definition; none for ops that decompose.
  std::shared_ptr<transforms::OpRules> rules;

  const std::string& name() const { return schema.name; }
};

}  // namespace funcspec

// What an op registers as its CUDA kernel: `op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(kernel);`. A build
// without the CUDA backend compiles none of the CUDA family files, so the kernel is left empty and
// dispatch reports `cuda_not_available` for it (allocating on cuda has already failed by then).
#if FUNCSPEC_HAVE_CUDA
#define FUNCSPEC_CUDA_KERNEL(...) (__VA_ARGS__)
#else
#define FUNCSPEC_CUDA_KERNEL(...) nullptr
#endif
