// Random ops: each draws from the stream the dispatcher reserves for it (NOTE: [random streams]),
// turning block i into element i by the portable rules of NOTE: [portable distributions].
#include <fmt/format.h>

#include "reference/backends/cpu/random.h"
#include "reference/backends/cuda/random.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace {

Shape checked_size(std::string_view op, const Attrs& attrs) {
  const std::vector<std::int64_t>& size = attrs.get_int_list("size");
  for (std::int64_t s : size) {
    FUNCSPEC_CHECK(s >= 0, ErrorKind::InvalidArgument, "[{}] size {} has a negative dim", op, shape_to_string(size));
  }
  return size;
}

DType checked_floating_dtype(std::string_view op, const Attrs& attrs) {
  const DType dtype = attrs.get_dtype("dtype");
  check_dtype(op, "dtype", dtype, DTypeSet::Floating);
  return dtype;
}

void check_probability(std::string_view op, double p) {
  FUNCSPEC_CHECK(p >= 0 && p <= 1, ErrorKind::InvalidArgument, "[{}] p must lie in [0, 1] but is {}", op, p);
}

void check_std(std::string_view op, double std) {
  FUNCSPEC_CHECK(std >= 0, ErrorKind::InvalidArgument, "[{}] std must be >= 0 but is {}", op, std);
}

void check_range(std::string_view op, double from, double to) {
  FUNCSPEC_CHECK(from <= to && std::isfinite(from) && std::isfinite(to), ErrorKind::InvalidArgument,
                 "[{}] expects finite from <= to but got from={} and to={}", op, from, to);
}

// An in-place random op: the functional op draws a tensor of self's shape and dtype, copy_ writes it.
void register_random_inplace(OpRegistry& registry, std::string_view schema, std::string functional, std::string summary,
                             bool floating_only) {
  OpDef& op = registry.add(schema, OpKind::InPlace, "random", std::move(summary));
  op.random = true;
  op.decompose = [name = op.name(), functional, floating_only](const TensorList& in, const Attrs& attrs) -> TensorList {
    if (floating_only) check_dtype(name, "self", in[0].dtype(), DTypeSet::Floating);
    call("copy_", {in[0], call_one(functional, {in[0]}, attrs)});
    return {in[0]};
  };
}

// The kernels of each op, for the cpu and the cuda backend alike: `fn` is the backend's function
// (cpu::fill_uniform or cuda::fill_uniform, ...), which share one signature; the attributes are
// read here.
// rand and randn: fill_uniform over [0, 1) and fill_normal with mean 0 and std 1.
template <auto fn>
KernelFn standard_kernel() {
  return [](const KernelArgs& a) { fn(a.outputs[0], *a.random, 0.0, 1.0); };
}

template <auto fn>
KernelFn randint_kernel() {
  return [](const KernelArgs& a) { fn(a.outputs[0], *a.random, a.attrs.get_int("low"), a.attrs.get_int("high")); };
}

template <auto fn>
KernelFn bernoulli_kernel() {
  return [](const KernelArgs& a) { fn(a.inputs[0], a.outputs[0], *a.random); };
}

template <auto fn>
KernelFn bernoulli_p_kernel() {
  return [](const KernelArgs& a) { fn(a.outputs[0], *a.random, a.attrs.get_float("p")); };
}

template <auto fn>
KernelFn normal_kernel() {
  return [](const KernelArgs& a) { fn(a.inputs[0], a.inputs[1], a.outputs[0], *a.random); };
}

template <auto fn>
KernelFn normal_functional_kernel() {
  return [](const KernelArgs& a) { fn(a.outputs[0], *a.random, a.attrs.get_float("mean"), a.attrs.get_float("std")); };
}

template <auto fn>
KernelFn uniform_kernel() {
  return [](const KernelArgs& a) { fn(a.outputs[0], *a.random, a.attrs.get_float("from"), a.attrs.get_float("to")); };
}

template <auto fn>
KernelFn exponential_kernel() {
  return [](const KernelArgs& a) { fn(a.outputs[0], *a.random, a.attrs.get_float("lambd")); };
}

template <auto fn>
KernelFn multinomial_kernel() {
  return [](const KernelArgs& a) {
    fn(a.inputs[0], a.outputs[0], a.attrs.get_int("num_samples"), a.attrs.get_bool("replacement"), *a.random);
  };
}

}  // namespace

void register_random_ops(OpRegistry& registry) {
  {
    OpDef& op = registry.add("rand(int[] size, *, ScalarType dtype=float32, str device='cpu') -> Tensor",
                             OpKind::Random, "random", "uniform samples in [0, 1)");
    op.infer = [](const TensorList&, const Attrs& attrs) -> std::vector<TensorMeta> {
      return {{checked_size("rand", attrs), checked_floating_dtype("rand", attrs)}};
    };
    op.cpu_kernel = standard_kernel<&cpu::fill_uniform>();
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(standard_kernel<&cuda::fill_uniform>());
  }
  {
    OpDef& op = registry.add("randn(int[] size, *, ScalarType dtype=float32, str device='cpu') -> Tensor",
                             OpKind::Random, "random", "standard normal samples (Box-Muller)");
    op.infer = [](const TensorList&, const Attrs& attrs) -> std::vector<TensorMeta> {
      return {{checked_size("randn", attrs), checked_floating_dtype("randn", attrs)}};
    };
    op.cpu_kernel = standard_kernel<&cpu::fill_normal>();
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(standard_kernel<&cuda::fill_normal>());
  }
  {
    OpDef& op =
        registry.add("randint(int low, int high, int[] size, *, ScalarType dtype=int64, str device='cpu') -> Tensor",
                     OpKind::Random, "random", "integers uniform in [low, high), converted to dtype");
    op.infer = [](const TensorList&, const Attrs& attrs) -> std::vector<TensorMeta> {
      const std::int64_t low = attrs.get_int("low"), high = attrs.get_int("high");
      FUNCSPEC_CHECK(low < high, ErrorKind::InvalidArgument, "[randint] expects low < high but got low={} and high={}",
                     low, high);
      const DType dtype = attrs.get_dtype("dtype");
      FUNCSPEC_CHECK(dtype != DType::Bool || (low >= 0 && high <= 2), ErrorKind::InvalidArgument,
                     "[randint] a bool result needs 0 <= low < high <= 2 but got low={} and high={}", low, high);
      return {{checked_size("randint", attrs), dtype}};
    };
    op.cpu_kernel = randint_kernel<&cpu::fill_randint>();
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(randint_kernel<&cuda::fill_randint>());
  }
  {
    OpDef& op = registry.add("bernoulli(Tensor p) -> Tensor", OpKind::Random, "random",
                             "1 with probability p[i], else 0, in p's dtype (p must lie in [0, 1])");
    op.infer = [](const TensorList& in, const Attrs&) -> std::vector<TensorMeta> {
      check_dtype("bernoulli", "p", in[0].dtype(), DTypeSet::Floating);
      return {{in[0].shape(), in[0].dtype()}};
    };
    op.cpu_kernel = bernoulli_kernel<&cpu::bernoulli_tensor>();
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(bernoulli_kernel<&cuda::bernoulli_tensor>());
  }
  {
    OpDef& op = registry.add("bernoulli.p(Tensor self, float p=0.5) -> Tensor", OpKind::Random, "random",
                             "1 with probability p, else 0, in self's shape and dtype (self's values unused)");
    op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
      check_probability("bernoulli.p", attrs.get_float("p"));
      return {{in[0].shape(), in[0].dtype()}};
    };
    op.cpu_kernel = bernoulli_p_kernel<&cpu::fill_bernoulli_scalar>();
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(bernoulli_p_kernel<&cuda::fill_bernoulli_scalar>());
  }
  {
    OpDef& op = registry.add("normal(Tensor mean, Tensor std) -> Tensor", OpKind::Random, "random",
                             "mean + std * z per element, z standard normal; mean and std broadcast and promote");
    op.canonicalize = [](const TensorList& in, const Attrs&) {
      return cast_and_broadcast(in, result_type(in), "normal");
    };
    op.infer = [](const TensorList& in, const Attrs&) -> std::vector<TensorMeta> {
      check_dtype("normal", "mean", in[0].dtype(), DTypeSet::Floating);
      return {{in[0].shape(), in[0].dtype()}};
    };
    op.cpu_kernel = normal_kernel<&cpu::normal_tensor>();
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(normal_kernel<&cuda::normal_tensor>());
  }
  {
    OpDef& op = registry.add("normal_functional(Tensor self, float mean=0, float std=1) -> Tensor", OpKind::Random,
                             "random", "mean + std * z in self's shape and floating dtype (self's values unused)");
    op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
      check_dtype("normal_functional", "self", in[0].dtype(), DTypeSet::Floating);
      check_std("normal_functional", attrs.get_float("std"));
      return {{in[0].shape(), in[0].dtype()}};
    };
    op.cpu_kernel = normal_functional_kernel<&cpu::fill_normal>();
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(normal_functional_kernel<&cuda::fill_normal>());
  }
  {
    OpDef& op = registry.add("uniform(Tensor self, float from=0, float to=1) -> Tensor", OpKind::Random, "random",
                             "from + (to - from) * u in self's shape and floating dtype (self's values unused)");
    op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
      check_dtype("uniform", "self", in[0].dtype(), DTypeSet::Floating);
      check_range("uniform", attrs.get_float("from"), attrs.get_float("to"));
      return {{in[0].shape(), in[0].dtype()}};
    };
    op.cpu_kernel = uniform_kernel<&cpu::fill_uniform>();
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(uniform_kernel<&cuda::fill_uniform>());
  }
  {
    OpDef& op = registry.add("exponential(Tensor self, float lambd=1) -> Tensor", OpKind::Random, "random",
                             "e / lambd, e standard exponential, in self's shape and floating dtype (self's values "
                             "unused)");
    op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
      check_dtype("exponential", "self", in[0].dtype(), DTypeSet::Floating);
      const double lambd = attrs.get_float("lambd");
      // PyTorch 2's exponential_ check; an infinite rate gives zeros, as e / inf.
      FUNCSPEC_CHECK(lambd > 0, ErrorKind::InvalidArgument, "[exponential] expects lambd > 0 but got lambd={}", lambd);
      return {{in[0].shape(), in[0].dtype()}};
    };
    op.cpu_kernel = exponential_kernel<&cpu::fill_exponential>();
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(exponential_kernel<&cuda::fill_exponential>());
  }
  {
    OpDef& op =
        registry.add("multinomial(Tensor self, int num_samples, bool replacement=False) -> Tensor", OpKind::Random,
                     "random", "category indices drawn with probability proportional to the weights of each row");
    op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
      const Tensor& self = in[0];
      check_rank("multinomial", "self", self, {1, 2});
      check_dtype("multinomial", "self", self.dtype(), DTypeSet::Floating);
      const std::int64_t n = attrs.get_int("num_samples"), categories = self.shape().back();
      FUNCSPEC_CHECK(n > 0, ErrorKind::InvalidArgument, "[multinomial] num_samples must be positive but is {}", n);
      FUNCSPEC_CHECK(categories > 0, ErrorKind::InvalidArgument,
                     "[multinomial] self of shape {} has no categories to draw from", shape_to_string(self.shape()));
      FUNCSPEC_CHECK(attrs.get_bool("replacement") || n <= categories, ErrorKind::InvalidArgument,
                     "[multinomial] cannot draw {} samples without replacement from {} categories", n, categories);
      if (self.dim() == 1) return {{{n}, DType::Int64}};
      return {{{self.shape()[0], n}, DType::Int64}};
    };
    op.random_draws = [](const TensorList& in, const Attrs& attrs) -> std::uint64_t {
      const std::int64_t rows = in[0].dim() == 2 ? in[0].shape()[0] : 1;
      const std::int64_t per_row = attrs.get_bool("replacement") ? attrs.get_int("num_samples") : in[0].shape().back();
      return static_cast<std::uint64_t>(rows * per_row);
    };
    op.cpu_kernel = multinomial_kernel<&cpu::multinomial>();
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(multinomial_kernel<&cuda::multinomial>());
  }
  register_random_inplace(registry, "normal_(Tensor(a!) self, float mean=0, float std=1) -> Tensor(a!)",
                          "normal_functional", "fills self with mean + std * z", true);
  register_random_inplace(registry, "uniform_(Tensor(a!) self, float from=0, float to=1) -> Tensor(a!)", "uniform",
                          "fills self with uniform samples in [from, to)", true);
  register_random_inplace(registry, "exponential_(Tensor(a!) self, float lambd=1) -> Tensor(a!)", "exponential",
                          "fills self with exponential samples of rate lambd", true);
  register_random_inplace(registry, "bernoulli_(Tensor(a!) self, float p=0.5) -> Tensor(a!)", "bernoulli.p",
                          "fills self with 1 at probability p, else 0 (any dtype)", false);
}

}  // namespace funcspec
