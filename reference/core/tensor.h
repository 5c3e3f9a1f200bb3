#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/device.h"
#include "reference/core/dtype.h"
#include "reference/core/error.h"
#include "reference/core/scalar.h"
#include "reference/core/shape.h"
#include "reference/core/storage.h"
#include "reference/core/transform_payload.h"

namespace funcspec {

// NOTE: [tensor model]
// A tensor is a strided view of a shared storage: element (i0, ..., ik) lives at
//   storage[offset + i0*strides[0] + ... + ik*strides[k]].
// Views (permute, select, expand, ...) share the storage and differ only in shape, strides and
// offset, so a write through any alias is visible through all of them. `Tensor` is a handle:
// copying it aliases the same tensor, as in PyTorch. A meta tensor has no storage at all.
// A *wrapped number* is a 0-dim tensor standing for a literal operand (the `2.5` in `x + 2.5`); it
// counts for less than real tensors in type promotion (promotion.h).
class TensorImpl {
 public:
  TensorImpl(std::shared_ptr<Storage> storage, Shape shape, Strides strides, std::int64_t offset, DType dtype,
             Device device)
      : storage_(std::move(storage)),
        shape_(std::move(shape)),
        strides_(std::move(strides)),
        offset_(offset),
        dtype_(dtype),
        device_(device) {}

  const std::shared_ptr<Storage>& storage() const { return storage_; }
  const Shape& shape() const { return shape_; }
  const Strides& strides() const { return strides_; }
  std::int64_t offset() const { return offset_; }
  DType dtype() const { return dtype_; }
  Device device() const { return device_; }
  bool is_wrapped_number() const { return wrapped_number_; }
  void set_wrapped_number(bool wrapped) { wrapped_number_ = wrapped; }
  // Set on the tensors a transform hands to the function it transforms (NOTE: [transform payloads]).
  const std::shared_ptr<const TransformPayload>& payload() const { return payload_; }
  void set_payload(std::shared_ptr<const TransformPayload> payload) { payload_ = std::move(payload); }

 private:
  std::shared_ptr<Storage> storage_;
  Shape shape_;
  Strides strides_;
  std::int64_t offset_;
  DType dtype_;
  Device device_;
  bool wrapped_number_ = false;
  std::shared_ptr<const TransformPayload> payload_;
};

class Tensor {
 public:
  Tensor() = default;  // an undefined tensor: stands for an absent optional input
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  // A new contiguous tensor; on cpu its elements are zero.
  static Tensor empty(const Shape& shape, DType dtype, Device device = Device::Cpu);
  // A view of `base`'s storage with the given geometry.
  static Tensor view_of(const Tensor& base, Shape shape, Strides strides, std::int64_t offset);
  // A 0-dim wrapped number holding `value` (see NOTE: [tensor model]).
  static Tensor wrapped_scalar(const Scalar& value);
  // What a transform hands to the function it transforms (NOTE: [transform payloads]): the logical
  // geometry and `payload`, no storage. `offset` lets a wrapper mirror all of its value's geometry
  // (the composite-compliance check's wrappers do, NOTE: [composite compliance]).
  static Tensor transform_wrapper(Shape shape, Strides strides, DType dtype, Device device,
                                  std::shared_ptr<const TransformPayload> payload, std::int64_t offset = 0);

  bool defined() const { return impl_ != nullptr; }
  const Shape& shape() const { return impl().shape(); }
  const Strides& strides() const { return impl().strides(); }
  std::int64_t storage_offset() const { return impl().offset(); }
  DType dtype() const { return impl().dtype(); }
  Device device() const { return impl().device(); }
  std::int64_t dim() const { return static_cast<std::int64_t>(shape().size()); }
  std::int64_t size(std::int64_t d) const;
  std::int64_t numel() const { return numel_of(shape()); }
  bool is_contiguous() const;
  bool is_wrapped_number() const { return impl().is_wrapped_number(); }
  // The transform this tensor belongs to, or nullptr for a plain tensor (NOTE: [transform payloads]).
  const TransformPayload* payload() const { return impl().payload().get(); }
  bool has_storage() const { return impl().storage() != nullptr; }
  const std::shared_ptr<Storage>& storage() const {
    if (impl().payload() != nullptr) note_direct_access("storage()");
    return impl().storage();
  }
  bool shares_storage_with(const Tensor& other) const;
  // The handle identity: true when both handles name the very same tensor (not merely an alias).
  bool is_same(const Tensor& other) const { return impl_ == other.impl_; }

  // Pointer to the element at the storage offset; kernels add index·strides to it. Checks that the
  // tensor lives on cpu and holds T. Every element access goes through here (NOTE: [direct access]).
  template <typename T>
  T* data() const;

  // Element access in logical order, converted to T (tests and printing).
  template <typename T>
  std::vector<T> to_vector() const;

  std::string to_string() const;
  const std::shared_ptr<TensorImpl>& impl_ptr() const { return impl_; }

 private:
  const TensorImpl& impl() const {
    FUNCSPEC_INTERNAL_ASSERT(impl_ != nullptr, "use of an undefined tensor");
    return *impl_;
  }
  // Tells this thread's DirectAccessObserver, if any, that `what` reaches into this wrapper.
  void note_direct_access(std::string_view what) const;
  std::shared_ptr<TensorImpl> impl_;
};

using TensorList = std::vector<Tensor>;

// NOTE: [direct access]
// A tensor's elements are reached only through data() (to_vector, to_string and every kernel use
// it) and its storage through storage() and Tensor::view_of. A tensor with a payload (a
// transform's wrapper) has no elements of its own, so reaching into one is a bug in the code that
// does it, which should have called ops instead: under vmap there is no single value to read, and
// a composite that reads its inputs this way breaks every transform (NOTE: [composite compliance]).
// Each of those entry points first tells this thread's observer, when a checking mode has
// installed one; the observer raises an error that names the rule. Without one, data() of a
// wrapper still fails, as an internal error.
class DirectAccessObserver {
 public:
  virtual ~DirectAccessObserver() = default;
  // `what` ("data()", "storage()", "Tensor::view_of") is about to reach into `tensor`, a wrapper.
  virtual void on_direct_access(const Tensor& tensor, std::string_view what) = 0;
};

// Installs `observer` on this thread for the scope's lifetime; scopes nest strictly.
class DirectAccessScope {
 public:
  explicit DirectAccessScope(DirectAccessObserver& observer);
  ~DirectAccessScope();
  DirectAccessScope(const DirectAccessScope&) = delete;
  DirectAccessScope& operator=(const DirectAccessScope&) = delete;

 private:
  DirectAccessObserver* previous_;
};

// A contiguous cpu tensor holding `values` (row-major) converted to `dtype`.
template <typename T>
Tensor from_vector(const std::vector<T>& values, const Shape& shape, DType dtype);
Tensor from_values(std::initializer_list<double> values, const Shape& shape, DType dtype = DType::Float64);

// NOTE: [device transfer]
// `t` on `target`: `t` itself when it is there already (as PyTorch's Tensor.to), else a contiguous
// copy with the same values, dtype and wrapped-number flag. To meta keeps shape and dtype only;
// from meta raises data_dependent_on_meta (there are no values to move). This is not an op:
// transforms do not see it, so it takes plain tensors only (a transform's wrapper is an error);
// programs move their inputs before transforming, as the conformance evaluator does.
// (reference/core/device_transfer.cpp)
Tensor to_device(const Tensor& t, Device target);

}  // namespace funcspec

#include "reference/core/tensor_inl.h"
