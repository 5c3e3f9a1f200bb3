#include "conformance/case/case_reader.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "conformance/case/base64.h"
#include "conformance/case/npy.h"
#include "reference/core/error.h"
#include "reference/ops/registry.h"

namespace funcspec::conformance {
namespace {

std::string json_text(const Json& j) {
  std::string text = j.dump();
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

std::string type_name(const Json& j) {
  if (j.is_null()) return "null";
  if (j.is_boolean()) return "a bool";
  if (j.is_number_integer()) return "an integer";
  if (j.is_number_float()) return "a float";
  if (j.is_string()) return "a string";
  if (j.is_array()) return "a list";
  return "an object";
}

class CaseReader {
 public:
  CaseReader(std::string file, std::filesystem::path base_dir)
      : file_(std::move(file)), base_dir_(std::move(base_dir)) {}

  [[noreturn]] void bad(const std::string& path, const std::string& problem) const {
    throw CaseError(file_, path, problem);
  }

  const Json& field(const Json& object, const std::string& path, const char* key) const {
    if (!object.contains(key)) bad(path, fmt::format("missing required field '{}'", key));
    return object.at(key);
  }

  void require_object(const Json& j, const std::string& path, std::initializer_list<std::string_view> allowed) const {
    if (!j.is_object()) bad(path, fmt::format("expected an object but got {}", type_name(j)));
    for (const auto& [key, value] : j.items()) {
      bool known = false;
      for (std::string_view a : allowed) known = known || a == key;
      if (!known) bad(path, fmt::format("unknown field '{}' (expected one of: {})", key, fmt::join(allowed, ", ")));
    }
  }

  std::string string_of(const Json& j, const std::string& path) const {
    if (!j.is_string()) bad(path, fmt::format("expected a string but got {}", type_name(j)));
    return j.get<std::string>();
  }

  bool bool_of(const Json& j, const std::string& path) const {
    if (!j.is_boolean()) bad(path, fmt::format("expected a bool but got {}", type_name(j)));
    return j.get<bool>();
  }

  std::int64_t int_of(const Json& j, const std::string& path) const {
    if (j.is_number_unsigned() && j.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
      bad(path, fmt::format("{} does not fit in int64", json_text(j)));
    if (!j.is_number_integer()) bad(path, fmt::format("expected an integer but got {} {}", type_name(j), json_text(j)));
    return j.get<std::int64_t>();
  }

  double float_of(const Json& j, const std::string& path) const {
    if (j.is_number()) return j.get<double>();
    if (j.is_string()) {
      if (auto v = float_from_json_string(j.get<std::string>())) return *v;
    }
    bad(path,
        fmt::format("expected a number (or \"nan\", \"inf\", \"-inf\") but got {} {}", type_name(j), json_text(j)));
  }

  // A bool, an integer or a float, as the JSON value is written.
  Scalar scalar_of(const Json& j, const std::string& path) const {
    if (j.is_boolean()) return Scalar(j.get<bool>());
    if (j.is_number_integer()) return Scalar(int_of(j, path));
    return Scalar(float_of(j, path));
  }

  std::vector<std::int64_t> int_list_of(const Json& j, const std::string& path) const {
    if (!j.is_array()) bad(path, fmt::format("expected a list of integers but got {}", type_name(j)));
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < j.size(); ++i) out.push_back(int_of(j[i], fmt::format("{}[{}]", path, i)));
    return out;
  }

  // A list of numbers (or "nan"/"inf"/"-inf"), or one number.
  std::vector<double> float_list_of(const Json& j, const std::string& path) const {
    if (!j.is_array()) return {float_of(j, path)};
    std::vector<double> out;
    for (std::size_t i = 0; i < j.size(); ++i) out.push_back(float_of(j[i], fmt::format("{}[{}]", path, i)));
    return out;
  }

  std::vector<std::string> string_list_of(const Json& j, const std::string& path) const {
    if (!j.is_array()) bad(path, fmt::format("expected a list of strings but got {}", type_name(j)));
    std::vector<std::string> out;
    for (std::size_t i = 0; i < j.size(); ++i) out.push_back(string_of(j[i], fmt::format("{}[{}]", path, i)));
    return out;
  }

  // --- tensors ---

  DType dtype_of(const Json& j, const std::string& path) const {
    const std::string name = string_of(j, path);
    const std::optional<DType> dtype = parse_dtype(name);
    if (!dtype || !is_case_dtype(*dtype))
      bad(path, fmt::format("unknown dtype '{}' (a case holds bool, int64, float32 or float64)", name));
    return *dtype;
  }

  Shape shape_of(const Json& j, const std::string& path) const {
    Shape shape = int_list_of(j, path);
    for (std::size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] < 0) bad(fmt::format("{}[{}]", path, d), fmt::format("a size must be >= 0, got {}", shape[d]));
    }
    if (!bounded_numel(shape))
      bad(path, fmt::format("shape {} has more than {} elements", shape_to_string(shape), kMaxCaseElements));
    return shape;
  }

  // Appends `j`'s elements in C order. Data is a flat list, or lists nested exactly as the shape.
  void flatten(const Json& j, const std::string& path, const Shape& shape, std::size_t depth,
               std::vector<std::pair<const Json*, std::string>>& out) const {
    const bool nested = j.is_array() && !j.empty() && j[0].is_array();
    if (depth == 0 && !nested) {
      if (!j.is_array()) {
        out.emplace_back(&j, path);  // a rank-0 tensor may give its value bare
        return;
      }
      for (std::size_t i = 0; i < j.size(); ++i) out.emplace_back(&j[i], fmt::format("{}[{}]", path, i));
      return;
    }
    if (depth == shape.size()) {
      out.emplace_back(&j, path);
      return;
    }
    if (!j.is_array() || j.size() != static_cast<std::size_t>(shape[depth]))
      bad(path, fmt::format("nested data does not match shape {}: expected a list of {} at depth {}",
                            shape_to_string(shape), shape[depth], depth));
    for (std::size_t i = 0; i < j.size(); ++i) flatten(j[i], fmt::format("{}[{}]", path, i), shape, depth + 1, out);
  }

  void append_element(const Json& j, const std::string& path, DType dtype, std::vector<std::uint8_t>& bytes) const {
    auto append = [&](const auto& value) {
      const auto* raw = reinterpret_cast<const std::uint8_t*>(&value);
      bytes.insert(bytes.end(), raw, raw + sizeof(value));
    };
    switch (dtype) {
      case DType::Bool: bytes.push_back(bool_of(j, path) ? 1 : 0); return;
      case DType::Int64: append(int_of(j, path)); return;
      case DType::Float32: {
        const double value = float_of(j, path);
        const auto narrowed = static_cast<float>(value);
        if (std::isfinite(value) && !std::isfinite(narrowed))
          bad(path, fmt::format("{} overflows float32", json_text(j)));
        append(narrowed);
        return;
      }
      case DType::Float64: append(float_of(j, path)); return;
      case DType::Oracle: break;
    }
    bad(path, "the oracle dtype cannot appear in a case");
  }

  TensorLayout layout_of(const Json& j, const std::string& path, std::size_t rank) const {
    require_object(j, path, {"permute", "slice", "strides", "offset"});
    TensorLayout layout;
    if (j.contains("strides") || j.contains("offset")) {
      if (j.contains("permute") || j.contains("slice"))
        bad(path, "explicit strides and offset exclude 'permute' and 'slice'");
      layout.strides = int_list_of(field(j, path, "strides"), path + ".strides");
      if (layout.strides->size() != rank)
        bad(path + ".strides",
            fmt::format("needs {} strides for a tensor of rank {}, got {}", rank, rank, layout.strides->size()));
      for (std::size_t d = 0; d < rank; ++d) {
        if ((*layout.strides)[d] < 0) bad(fmt::format("{}.strides[{}]", path, d), "a stride must be >= 0");
      }
      if (j.contains("offset")) layout.offset = int_of(j["offset"], path + ".offset");
      if (layout.offset < 0) bad(path + ".offset", "the offset must be >= 0");
      return layout;
    }
    if (j.contains("permute")) {
      const std::string p = path + ".permute";
      layout.permute = int_list_of(j["permute"], p);
      std::vector<bool> seen(rank, false);
      if (layout.permute.size() != rank)
        bad(p, fmt::format("needs {} dims for a tensor of rank {}, got {}", rank, rank, layout.permute.size()));
      for (std::int64_t d : layout.permute) {
        if (d < 0 || d >= static_cast<std::int64_t>(rank) || seen[static_cast<std::size_t>(d)])
          bad(p, fmt::format("{} is not a permutation of 0..{}", json_text(j["permute"]), rank - 1));
        seen[static_cast<std::size_t>(d)] = true;
      }
    }
    if (j.contains("slice")) {
      const std::string p = path + ".slice";
      require_object(j["slice"], p, {"start", "step"});
      layout.slice_start = int_list_of(field(j["slice"], p, "start"), p + ".start");
      layout.slice_step = int_list_of(field(j["slice"], p, "step"), p + ".step");
      if (layout.slice_start.size() != rank || layout.slice_step.size() != rank)
        bad(p, fmt::format("start and step need one entry per dim of a tensor of rank {}", rank));
      for (std::size_t d = 0; d < rank; ++d) {
        if (layout.slice_start[d] < 0 || layout.slice_start[d] > kMaxCaseElements)
          bad(fmt::format("{}.start[{}]", p, d), fmt::format("a start must be in [0, {}]", kMaxCaseElements));
        if (layout.slice_step[d] < 1) bad(fmt::format("{}.step[{}]", p, d), "a step must be >= 1");
      }
    }
    return layout;
  }

  // Explicit strides may map several logical elements to one buffer element (an expanded input),
  // which can only hold one value: the values must agree.
  void check_overlapping_values(const TensorSpec& spec, const std::string& path) const {
    const Shape& shape = spec.data.shape;
    const std::vector<std::int64_t>& strides = *spec.layout.strides;
    // Dims by increasing stride: no overlap when each stride clears everything the smaller ones span.
    std::vector<std::size_t> order(shape.size());
    for (std::size_t d = 0; d < order.size(); ++d) order[d] = d;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return strides[a] < strides[b]; });
    std::int64_t spanned = 0;
    bool disjoint = true;
    for (std::size_t d : order) {
      if (shape[d] <= 1) continue;
      if (strides[d] <= spanned) disjoint = false;
      spanned += (shape[d] - 1) * strides[d];
    }
    if (disjoint || spec.values_omitted) return;
    const std::size_t item = itemsize(spec.data.dtype);
    std::map<std::int64_t, std::int64_t> first_at;  // buffer position -> first logical element there
    const std::int64_t count = spec.data.numel();
    Shape index(shape.size(), 0);
    for (std::int64_t i = 0; i < count; ++i) {
      std::int64_t position = spec.layout.offset;
      for (std::size_t d = 0; d < shape.size(); ++d) position += index[d] * strides[d];
      const auto [it, fresh] = first_at.emplace(position, i);
      if (!fresh && std::memcmp(spec.data.bytes.data() + static_cast<std::size_t>(it->second) * item,
                                spec.data.bytes.data() + static_cast<std::size_t>(i) * item, item) != 0)
        bad(path + ".strides",
            fmt::format("maps elements {} and {} to the same memory, but their values differ", it->second, i));
      for (std::size_t d = shape.size(); d-- > 0;) {
        if (++index[d] < shape[d]) break;
        index[d] = 0;
      }
    }
  }

  // The buffer behind a laid-out input must stay within kMaxCaseElements too.
  void check_layout_size(const TensorLayout& layout, const Shape& shape, const std::string& path) const {
    if (layout.strides) {
      if (!strided_extent(shape, *layout.strides, layout.offset))
        bad(path, fmt::format("the buffer behind these strides would exceed {} elements", kMaxCaseElements));
      return;
    }
    if (layout.slice_start.empty()) return;
    Shape extents(shape.size());
    for (std::size_t d = 0; d < shape.size(); ++d) {
      const std::int64_t last = std::max<std::int64_t>(shape[d] - 1, 0);
      std::int64_t reach = 0;
      if (__builtin_mul_overflow(last, layout.slice_step[d], &reach) ||
          __builtin_add_overflow(reach, layout.slice_start[d] + 1, &extents[d]))
        bad(path, "the slice reaches beyond any buffer a case may hold");
    }
    if (!bounded_numel(extents))
      bad(path, fmt::format("the buffer {} behind this slice has more than {} elements", shape_to_string(extents),
                            kMaxCaseElements));
  }

  // `values`: whether the tensor must, may or must not carry values (meta cases have none).
  enum class Values { Required, Optional, Omitted };

  TensorSpec tensor_of(const Json& j, const std::string& path, bool allow_layout, bool allow_tolerance = false,
                       Values values = Values::Required) const {
    std::initializer_list<std::string_view> keys = {"dtype", "shape", "data", "base64", "npy", "layout", "tolerance"};
    require_object(j, path, keys);
    if (!allow_layout && j.contains("layout")) bad(path + ".layout", "a layout is only meaningful for inputs");
    if (!allow_tolerance && j.contains("tolerance")) bad(path + ".tolerance", "a tolerance belongs to expected values");
    TensorSpec spec;
    const int sources = static_cast<int>(j.contains("data")) + static_cast<int>(j.contains("base64")) +
                        static_cast<int>(j.contains("npy"));
    if (values == Values::Omitted && sources != 0)
      bad(path, "a meta case has no values to compare: give only 'dtype' and 'shape'");
    if (sources == 0 && values != Values::Required) {
      spec.values_omitted = true;
      spec.data.dtype = dtype_of(field(j, path, "dtype"), path + ".dtype");
      spec.data.shape = shape_of(field(j, path, "shape"), path + ".shape");
    } else if (sources != 1) {
      bad(path, values == Values::Required ? "needs exactly one of 'data', 'base64' and 'npy'"
                                           : "needs at most one of 'data', 'base64' and 'npy'");
    } else if (j.contains("npy")) {
      spec.npy_file = string_of(j["npy"], path + ".npy");
      try {
        spec.data = read_npy(base_dir_ / spec.npy_file);
      } catch (const CaseError& e) {
        bad(path + ".npy", e.what());
      }
      if (j.contains("dtype") && dtype_of(j["dtype"], path + ".dtype") != spec.data.dtype)
        bad(path + ".dtype",
            fmt::format("says {} but {} holds {}", json_text(j["dtype"]), spec.npy_file, dtype_name(spec.data.dtype)));
      if (j.contains("shape") && shape_of(j["shape"], path + ".shape") != spec.data.shape)
        bad(path + ".shape", fmt::format("says {} but {} has shape {}", json_text(j["shape"]), spec.npy_file,
                                         shape_to_string(spec.data.shape)));
    } else {
      spec.data.dtype = dtype_of(field(j, path, "dtype"), path + ".dtype");
      spec.data.shape = shape_of(field(j, path, "shape"), path + ".shape");
      const auto count = static_cast<std::size_t>(spec.data.numel());
      if (j.contains("base64")) {
        spec.base64 = true;
        const auto decoded = base64_decode(string_of(j["base64"], path + ".base64"));
        if (!decoded) bad(path + ".base64", "is not valid base64");
        const std::size_t expected = count * itemsize(spec.data.dtype);
        if (decoded->size() != expected)
          bad(path + ".base64", fmt::format("holds {} bytes but {} {} needs {}", decoded->size(),
                                            shape_to_string(spec.data.shape), dtype_name(spec.data.dtype), expected));
        spec.data.bytes = *decoded;
      } else {
        std::vector<std::pair<const Json*, std::string>> elements;
        flatten(j["data"], path + ".data", spec.data.shape, 0, elements);
        if (elements.size() != count)
          bad(path + ".data", fmt::format("has {} values but shape {} needs {}", elements.size(),
                                          shape_to_string(spec.data.shape), count));
        for (const auto& [element, element_path] : elements)
          append_element(*element, element_path, spec.data.dtype, spec.data.bytes);
      }
    }
    if (j.contains("layout")) {
      spec.layout = layout_of(j["layout"], path + ".layout", spec.data.shape.size());
      check_layout_size(spec.layout, spec.data.shape, path + (spec.layout.strides ? ".layout" : ".layout.slice"));
      if (spec.layout.strides) check_overlapping_values(spec, path + ".layout");
    }
    return spec;
  }

  // --- inputs and program ---

  CaseInput input_of(const std::string& name, const Json& j, const std::string& path,
                     const std::vector<CaseInput>& earlier) const {
    if (j.is_object() && j.contains("alias_of")) return alias_input_of(name, j, path, earlier);
    if (j.is_object() && j.contains("literal")) {
      require_object(j, path, {"literal"});
      return {name, LiteralSpec{scalar_of(j["literal"], path + ".literal")}};
    }
    return {name, tensor_of(j, path, true, false, device_ == Device::Meta ? Values::Optional : Values::Required)};
  }

  // An input that is a view of an earlier input's memory (format 1.1): its values are the base's
  // elements its strides and offset reach.
  CaseInput alias_input_of(const std::string& name, const Json& j, const std::string& path,
                           const std::vector<CaseInput>& earlier) const {
    require_format_11(path + ".alias_of");
    require_object(j, path, {"alias_of", "dtype", "shape", "layout"});
    const std::string base_name = string_of(j["alias_of"], path + ".alias_of");
    const CaseInput* base = nullptr;
    for (const CaseInput& in : earlier) {
      if (in.name == base_name) base = &in;
    }
    if (base == nullptr) bad(path + ".alias_of", fmt::format("'{}' is not an earlier input", base_name));
    const auto* base_spec = std::get_if<TensorSpec>(&base->value);
    if (base_spec == nullptr || !base->alias_of.empty() || !base_spec->layout.is_contiguous() ||
        base_spec->values_omitted)
      bad(path + ".alias_of",
          fmt::format("'{}' must be a tensor input with values and no layout or alias of its own", base_name));
    TensorSpec spec;
    spec.data.dtype = dtype_of(field(j, path, "dtype"), path + ".dtype");
    if (spec.data.dtype != base_spec->data.dtype)
      bad(path + ".dtype",
          fmt::format("a view of '{}' has its dtype, {}", base_name, dtype_name(base_spec->data.dtype)));
    spec.data.shape = shape_of(field(j, path, "shape"), path + ".shape");
    spec.layout = layout_of(field(j, path, "layout"), path + ".layout", spec.data.shape.size());
    if (!spec.layout.strides) bad(path + ".layout", "an alias gives 'strides' and 'offset' into its base's memory");
    const std::optional<std::int64_t> extent =
        strided_extent(spec.data.shape, *spec.layout.strides, spec.layout.offset);
    if (!extent || *extent > base_spec->data.numel())
      bad(path + ".layout", fmt::format("reaches beyond the {} elements of '{}'", base_spec->data.numel(), base_name));
    const std::size_t item = itemsize(spec.data.dtype);
    const Strides strides(spec.layout.strides->begin(), spec.layout.strides->end());
    for (std::int64_t i = 0; i < spec.data.numel(); ++i) {
      std::int64_t rest = i;
      std::int64_t at = spec.layout.offset;
      for (std::size_t d = spec.data.shape.size(); d-- > 0;) {
        at += (rest % spec.data.shape[d]) * strides[d];
        rest /= spec.data.shape[d];
      }
      const auto* element = base_spec->data.bytes.data() + static_cast<std::size_t>(at) * item;
      spec.data.bytes.insert(spec.data.bytes.end(), element, element + item);
    }
    CaseInput input{name, std::move(spec)};
    input.alias_of = base_name;
    return input;
  }

  // A call of the global autograd API (format 1.1, feature autograd_api): autograd.grad's args are
  // the differentiated output and the inputs, with one result per input; autograd.backward's arg is
  // the output, with no result.
  OpCall autograd_call_of(const Json& j, const std::string& path, OpCall call, std::set<std::string>& defined) const {
    require_format_11(path + ".op");
    if (j.contains("attrs") && !(j["attrs"].is_object() && j["attrs"].empty()))
      bad(path + ".attrs", fmt::format("{} takes no attributes", call.op));
    const Json& args = j.contains("args") ? j["args"] : Json::array();
    const std::vector<std::string> names = string_list_of(args, path + ".args");
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (!defined.count(names[i]))
        bad(fmt::format("{}.args[{}]", path, i), fmt::format("'{}' is used before it is defined", names[i]));
      call.args.emplace_back(names[i]);
    }
    const bool grad = call.op == kAutogradGrad;
    if (grad ? names.size() < 2 : names.size() != 1)
      bad(path + ".args", grad ? "autograd.grad takes the output, then at least one input"
                               : "autograd.backward takes the output alone");
    const Json& out = field(j, path, "out");
    call.outs = out.is_string() ? std::vector<std::string>{out.get<std::string>()} : string_list_of(out, path + ".out");
    const std::size_t results = grad ? names.size() - 1 : 0;
    if (call.outs.size() != results)
      bad(path + ".out",
          fmt::format("{} returns {} value(s) but {} name(s) are given", call.op, results, call.outs.size()));
    if (!call.stored_as.empty()) bad(path + ".stored_as", fmt::format("{} has nothing to store", call.op));
    for (std::size_t i = 0; i < call.outs.size(); ++i) {
      if (call.outs[i].empty()) bad(fmt::format("{}.out[{}]", path, i), "a name must not be empty");
      if (!defined.insert(call.outs[i]).second)
        bad(fmt::format("{}.out[{}]", path, i), fmt::format("'{}' is already defined (names are SSA)", call.outs[i]));
    }
    return call;
  }

  // A step's nested grad-mode regions, outermost first (format 1.1, feature grad_mode_regions).
  std::vector<CallMode> grad_modes_of(const Json& j, const std::string& path, bool no_grad) const {
    require_format_11(path);
    if (no_grad) bad(path, "give the step's regions in grad_modes alone, without no_grad");
    if (!j.is_array() || j.empty())
      bad(path, fmt::format("expected a non-empty list of modes, outermost first, but got {}", type_name(j)));
    std::vector<CallMode> modes;
    for (std::size_t i = 0; i < j.size(); ++i) {
      const std::string element_path = fmt::format("{}[{}]", path, i);
      const std::string name = string_of(j[i], element_path);
      const std::optional<CallMode> mode = parse_call_mode(name);
      if (!mode || *mode == CallMode::Plain)
        bad(element_path, fmt::format("unknown region '{}' (expected no_grad, enable_grad or inference_mode)", name));
      modes.push_back(*mode);
    }
    return modes;
  }

  void require_format_11(const std::string& path) const {
    if (!format_11_)
      bad(path, fmt::format("this field belongs to format {}; the case says {}", kCaseFormat11, kCaseFormat));
  }

  AttrValue attr_of(const Json& j, const std::string& path, const ArgSpec& spec, const std::string& op) const {
    if (j.is_null()) {
      if (!spec.optional) bad(path, fmt::format("'{}' of {} is not optional", spec.name, op));
      return std::monostate{};
    }
    switch (spec.type) {
      case ArgType::BoolArg: return bool_of(j, path);
      case ArgType::IntArg: return int_of(j, path);
      case ArgType::FloatArg: return float_of(j, path);
      case ArgType::StringArg: return string_of(j, path);
      case ArgType::IntListArg:
        if (j.is_number_integer()) return std::vector<std::int64_t>{int_of(j, path)};
        return int_list_of(j, path);
      case ArgType::FloatListArg: return float_list_of(j, path);
      case ArgType::ScalarArg: return scalar_of(j, path);
      case ArgType::DTypeArg: {
        const std::string name = string_of(j, path);
        const std::optional<DType> dtype = parse_dtype(name);
        if (!dtype) bad(path, fmt::format("unknown dtype '{}'", name));
        return *dtype;
      }
      case ArgType::TensorArg:
      case ArgType::TensorListArg: break;
    }
    bad(path, fmt::format("'{}' is a tensor input of {}; pass it in args", spec.name, op));
  }

  OpCall call_of(const Json& j, const std::string& path, std::set<std::string>& defined) const {
    require_object(j, path, {"out", "op", "args", "attrs", "no_grad", "grad_modes", "stored_as"});
    OpCall call;
    if (j.contains("stored_as")) {
      require_format_11(path + ".stored_as");
      call.stored_as = string_of(j["stored_as"], path + ".stored_as");
      if (call.stored_as.empty()) bad(path + ".stored_as", "a name must not be empty");
    }
    if (j.contains("no_grad")) {
      if (!j["no_grad"].is_boolean())
        bad(path + ".no_grad", fmt::format("expected true or false but got {}", type_name(j["no_grad"])));
      call.no_grad = j["no_grad"].get<bool>();
    }
    if (j.contains("grad_modes")) call.grad_modes = grad_modes_of(j["grad_modes"], path + ".grad_modes", call.no_grad);
    call.op = string_of(field(j, path, "op"), path + ".op");
    if (call.is_autograd_call()) return autograd_call_of(j, path, std::move(call), defined);
    const OpDef* op = OpRegistry::instance().find(call.op);
    if (op == nullptr) {
      std::string message = fmt::format("unknown op '{}'", call.op);
      try {
        OpRegistry::instance().get(call.op);
      } catch (const Error& e) {
        message = e.what();  // the same sentence, with the catalogue's near names
      }
      bad(path + ".op", message);
    }
    const OpSchema& schema = op->schema;

    const Json& args = j.contains("args") ? j["args"] : Json::array();
    if (!args.is_array()) bad(path + ".args", fmt::format("expected a list of names but got {}", type_name(args)));
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::string p = fmt::format("{}.args[{}]", path, i);
      if (args[i].is_null()) {
        call.args.emplace_back(std::nullopt);
        continue;
      }
      const std::string name = string_of(args[i], p);
      if (!defined.count(name)) bad(p, fmt::format("'{}' is used before it is defined", name));
      call.args.emplace_back(name);
    }
    const std::vector<const ArgSpec*> tensor_specs = schema.tensor_args();
    const bool variadic = tensor_specs.size() == 1 && tensor_specs[0]->type == ArgType::TensorListArg;
    if (!variadic) {
      if (call.args.size() > tensor_specs.size())
        bad(path + ".args", fmt::format("{} takes {} tensor inputs but got {} ({})", call.op, tensor_specs.size(),
                                        call.args.size(), schema.to_string()));
      for (std::size_t i = 0; i < tensor_specs.size(); ++i) {
        const bool given = i < call.args.size() && call.args[i].has_value();
        if (!given && !tensor_specs[i]->optional)
          bad(path + ".args",
              fmt::format("{} needs its tensor input '{}' ({})", call.op, tensor_specs[i]->name, schema.to_string()));
      }
    } else {
      for (const auto& a : call.args) {
        if (!a) bad(path + ".args", fmt::format("{} takes a list of tensors; null is not one", call.op));
      }
    }

    if (j.contains("attrs")) {
      const Json& attrs = j["attrs"];
      const std::string p = path + ".attrs";
      if (!attrs.is_object()) bad(p, fmt::format("expected an object but got {}", type_name(attrs)));
      for (const auto& [name, value] : attrs.items()) {
        const ArgSpec* spec = schema.find_arg(name);
        if (spec == nullptr)
          bad(p + "." + name, fmt::format("{} has no attribute '{}' ({})", call.op, name, schema.to_string()));
        try {
          call.attrs.set(name, attr_of(value, p + "." + name, *spec, call.op));
        } catch (const CaseError& e) {
          throw CaseError(file_, e.json_path(),
                          fmt::format("attribute '{}' of {}: {} ({})", name, call.op, e.problem(), schema.to_string()));
        }
      }
    }
    for (const ArgSpec* spec : schema.attr_args()) {
      if (!call.attrs.has(spec->name) && !spec->default_value)
        bad(path + ".attrs", fmt::format("{} needs the attribute '{}'", call.op, spec->name));
    }

    const Json& out = field(j, path, "out");
    call.outs = out.is_string() ? std::vector<std::string>{out.get<std::string>()} : string_list_of(out, path + ".out");
    const bool list_result = std::any_of(schema.returns.begin(), schema.returns.end(),
                                         [](const ReturnSpec& r) { return r.type == ArgType::TensorListArg; });
    if (!list_result && call.outs.size() != schema.returns.size())
      bad(path + ".out", fmt::format("{} returns {} value(s) but {} name(s) are given", call.op, schema.returns.size(),
                                     call.outs.size()));
    if (!call.stored_as.empty() && call.outs.size() != 1)
      bad(path + ".stored_as", "only a step with one result can store it");
    for (std::size_t i = 0; i < call.outs.size(); ++i) {
      if (call.outs[i].empty()) bad(fmt::format("{}.out[{}]", path, i), "a name must not be empty");
      if (!defined.insert(call.outs[i]).second)
        bad(fmt::format("{}.out[{}]", path, i), fmt::format("'{}' is already defined (names are SSA)", call.outs[i]));
    }
    return call;
  }

  // --- transforms ---

  std::optional<std::int64_t> optional_int_of(const Json& j, const std::string& path) const {
    if (j.is_null()) return std::nullopt;
    return int_of(j, path);
  }

  DimSpec dims_of(const Json& j, const std::string& path) const {
    DimSpec dims;
    if (j.is_null() || j.is_number()) {
      dims.all = optional_int_of(j, path);
    } else if (j.is_array()) {
      dims.form = DimSpec::Form::ByPosition;
      for (std::size_t i = 0; i < j.size(); ++i)
        dims.by_position.push_back(optional_int_of(j[i], fmt::format("{}[{}]", path, i)));
    } else if (j.is_object()) {
      dims.form = DimSpec::Form::ByName;
      for (const auto& [name, value] : j.items())
        dims.by_name.emplace_back(name, optional_int_of(value, path + "." + name));
    } else {
      bad(path, fmt::format("expected an integer, null, a list or an object but got {}", type_name(j)));
    }
    return dims;
  }

  ArgNums argnums_of(const Json& j, const std::string& path) const {
    ArgNums argnums;
    argnums.selectors.clear();
    auto selector = [&](const Json& s, const std::string& p) -> std::variant<std::int64_t, std::string> {
      if (s.is_string()) return s.get<std::string>();
      if (s.is_number_integer()) return int_of(s, p);
      bad(p, fmt::format("expected an argument position or an input name but got {}", type_name(s)));
    };
    if (j.is_array()) {
      argnums.written_as_list = true;
      for (std::size_t i = 0; i < j.size(); ++i)
        argnums.selectors.push_back(selector(j[i], fmt::format("{}[{}]", path, i)));
    } else {
      argnums.selectors.push_back(selector(j, path));
    }
    return argnums;
  }

  Randomness randomness_of(const Json& j, const std::string& path) const {
    const std::string name = string_of(j, path);
    for (Randomness r : {Randomness::Error, Randomness::Same, Randomness::Different}) {
      if (randomness_name(r) == name) return r;
    }
    bad(path, fmt::format("unknown randomness '{}' (expected error, same or different)", name));
  }

  std::vector<NamedTensor> named_tensors_of(const Json& j, const std::string& path) const {
    if (!j.is_object()) bad(path, fmt::format("expected an object of tensors but got {}", type_name(j)));
    std::vector<NamedTensor> out;
    for (const auto& [name, value] : j.items()) out.push_back({name, tensor_of(value, path + "." + name, false)});
    return out;
  }

  // Steps between a vjp (or linearize) and the call of the function it returned: over the case's
  // inputs, with names of their own.
  std::vector<OpCall> before_call_of(const Json& j, const std::string& path) const {
    require_format_11(path);
    if (!j.is_array()) bad(path, fmt::format("expected a list of op calls but got {}", type_name(j)));
    std::set<std::string> defined = input_names_;
    std::vector<OpCall> steps;
    for (std::size_t i = 0; i < j.size(); ++i) {
      steps.push_back(call_of(j[i], fmt::format("{}[{}]", path, i), defined));
      if (!steps.back().grad_modes.empty())
        bad(fmt::format("{}[{}].grad_modes", path, i), "the caller's steps run outside every transform");
      if (steps.back().is_autograd_call())
        bad(fmt::format("{}[{}].op", path, i), "the global autograd API is specified inside f only (AD-5.6)");
    }
    return steps;
  }

  Transform transform_of(const Json& given, const std::string& path, CallMode& mode) const {
    if (!given.is_object()) bad(path, fmt::format("expected an object but got {}", type_name(given)));
    Json j = given;
    if (j.contains("called_under")) {
      require_format_11(path + ".called_under");
      const std::string name = string_of(j["called_under"], path + ".called_under");
      const std::optional<CallMode> parsed = parse_call_mode(name);
      if (!parsed)
        bad(path + ".called_under",
            fmt::format("unknown mode '{}' (expected plain, no_grad, enable_grad or inference_mode)", name));
      mode = *parsed;
      j.erase("called_under");
    }
    std::vector<OpCall> before_call;
    if (j.contains("before_call")) {
      before_call = before_call_of(j["before_call"], path + ".before_call");
      const std::string name =
          j.contains("transform") && j["transform"].is_string() ? j["transform"].get<std::string>() : "";
      if (name != "vjp" && name != "linearize")
        bad(path + ".before_call", "only vjp and linearize return a function to call later");
      j.erase("before_call");
    }
    Transform t = transform_body_of(j, path);
    if (auto* vjp = std::get_if<VjpTransform>(&t)) vjp->before_call = std::move(before_call);
    if (auto* jvp = std::get_if<JvpTransform>(&t)) jvp->before_call = std::move(before_call);
    return t;
  }

  Transform transform_body_of(const Json& j, const std::string& path) const {
    const std::string name = string_of(field(j, path, "transform"), path + ".transform");
    auto get = [&](const char* key) -> const Json* { return j.contains(key) ? &j[key] : nullptr; };
    auto sub = [&](const char* key) { return path + "." + key; };
    if (name == "vmap") {
      require_object(j, path, {"transform", "in_dims", "out_dims", "randomness", "chunk_size"});
      VmapTransform t;
      if (auto* v = get("in_dims")) t.in_dims = dims_of(*v, sub("in_dims"));
      if (auto* v = get("out_dims")) t.out_dims = dims_of(*v, sub("out_dims"));
      if (auto* v = get("randomness")) t.randomness = randomness_of(*v, sub("randomness"));
      if (auto* v = get("chunk_size")) t.chunk_size = optional_int_of(*v, sub("chunk_size"));
      return t;
    }
    if (name == "grad" || name == "grad_and_value") {
      require_object(j, path, {"transform", "argnums", "has_aux"});
      GradTransform t;
      t.and_value = name == "grad_and_value";
      if (auto* v = get("argnums")) t.argnums = argnums_of(*v, sub("argnums"));
      if (auto* v = get("has_aux")) t.has_aux = bool_of(*v, sub("has_aux"));
      return t;
    }
    if (name == "vjp") {
      require_object(j, path, {"transform", "cotangents", "has_aux"});
      VjpTransform t;
      t.cotangents = named_tensors_of(field(j, path, "cotangents"), sub("cotangents"));
      if (auto* v = get("has_aux")) t.has_aux = bool_of(*v, sub("has_aux"));
      return t;
    }
    if (name == "jvp" || name == "linearize") {
      if (name == "jvp") {
        require_object(j, path, {"transform", "tangents", "has_aux"});
      } else {
        require_object(j, path, {"transform", "tangents"});
      }
      JvpTransform t;
      t.linearize = name == "linearize";
      t.tangents = named_tensors_of(field(j, path, "tangents"), sub("tangents"));
      if (auto* v = get("has_aux")) t.has_aux = bool_of(*v, sub("has_aux"));
      return t;
    }
    if (name == "jacrev" || name == "jacfwd") {
      JacobianTransform t;
      t.forward = name == "jacfwd";
      if (t.forward) {
        require_object(j, path, {"transform", "argnums", "has_aux", "randomness"});
      } else {
        require_object(j, path, {"transform", "argnums", "has_aux", "chunk_size"});
      }
      if (auto* v = get("argnums")) t.argnums = argnums_of(*v, sub("argnums"));
      if (auto* v = get("has_aux")) t.has_aux = bool_of(*v, sub("has_aux"));
      if (auto* v = get("chunk_size")) t.chunk_size = optional_int_of(*v, sub("chunk_size"));
      if (auto* v = get("randomness")) t.randomness = randomness_of(*v, sub("randomness"));
      return t;
    }
    if (name == "hessian") {
      require_object(j, path, {"transform", "argnums"});
      HessianTransform t;
      if (auto* v = get("argnums")) t.argnums = argnums_of(*v, sub("argnums"));
      return t;
    }
    if (name == "functionalize") {
      require_object(j, path, {"transform", "remove"});
      FunctionalizeTransform t;
      if (auto* v = get("remove")) t.remove = string_of(*v, sub("remove"));
      if (t.remove != "mutations" && t.remove != "mutations_and_views")
        bad(sub("remove"), fmt::format("unknown value '{}' (expected mutations or mutations_and_views)", t.remove));
      return t;
    }
    if (name == "functional_call") {
      require_object(j, path, {"transform", "parameters", "buffers", "strict", "tie_weights"});
      FunctionalCallTransform t;
      if (auto* v = get("parameters")) t.parameters = string_list_of(*v, sub("parameters"));
      if (auto* v = get("buffers")) t.buffers = string_list_of(*v, sub("buffers"));
      if (auto* v = get("strict")) t.strict = bool_of(*v, sub("strict"));
      if (auto* v = get("tie_weights")) t.tie_weights = bool_of(*v, sub("tie_weights"));
      return t;
    }
    bad(path + ".transform", fmt::format("unknown transform '{}' (expected vmap, grad, grad_and_value, vjp, jvp, "
                                         "linearize, jacrev, jacfwd, hessian, functionalize or functional_call)",
                                         name));
  }

  // The steps run in the caller after the call (format 1.1): they see the call's results, the
  // caller's inputs and the values the program stored.
  void after_of(const Json& j, Case& c) const {
    require_format_11("after");
    require_object(j, "after", {"program", "outputs"});
    std::set<std::string> defined = input_names_;
    std::set<std::string> stored;
    for (std::size_t i = 0; i < c.program.size(); ++i) {
      const std::string& name = c.program[i].stored_as;
      if (name.empty()) continue;
      if (input_names_.count(name) || !stored.insert(name).second)
        bad(fmt::format("program[{}].stored_as", i), fmt::format("'{}' is already a name outside the function", name));
    }
    std::vector<std::string> results;
    try {
      results = result_names(c);
    } catch (const CaseError& e) {
      bad(e.json_path(), e.problem());
    }
    for (const std::string& name : results) {
      if (stored.count(name)) bad("after", fmt::format("the result '{}' has the name of a stored value", name));
    }
    defined.insert(stored.begin(), stored.end());
    defined.insert(results.begin(), results.end());
    const Json& program = field(j, "after", "program");
    if (!program.is_array())
      bad("after.program", fmt::format("expected a list of op calls but got {}", type_name(program)));
    for (std::size_t i = 0; i < program.size(); ++i) {
      OpCall step = call_of(program[i], fmt::format("after.program[{}]", i), defined);
      if (!step.stored_as.empty()) bad(fmt::format("after.program[{}].stored_as", i), "the caller stores nothing");
      if (!step.grad_modes.empty())
        bad(fmt::format("after.program[{}].grad_modes", i), "the caller's steps run outside every transform");
      if (step.is_autograd_call())
        bad(fmt::format("after.program[{}].op", i), "the global autograd API is specified inside f only (AD-5.6)");
      c.after.push_back(std::move(step));
    }
    c.after_outputs = string_list_of(field(j, "after", "outputs"), "after.outputs");
    for (std::size_t i = 0; i < c.after_outputs.size(); ++i) {
      const std::string& name = c.after_outputs[i];
      const bool own = std::any_of(c.after.begin(), c.after.end(), [&](const OpCall& step) {
        return std::find(step.outs.begin(), step.outs.end(), name) != step.outs.end();
      });
      if (!own) bad(fmt::format("after.outputs[{}]", i), fmt::format("'{}' is not defined by the after steps", name));
    }
  }

  // --- expectation ---

  Tolerance tolerance_of(const Json& j, const std::string& path) const {
    require_object(j, path, {"atol", "rtol", "ulps"});
    Tolerance t;
    if (j.contains("atol")) t.atol = float_of(j["atol"], path + ".atol");
    if (j.contains("rtol")) t.rtol = float_of(j["rtol"], path + ".rtol");
    if (j.contains("ulps")) t.ulps = int_of(j["ulps"], path + ".ulps");
    if (!(t.atol >= 0) || !(t.rtol >= 0) || t.ulps < 0) bad(path, "atol, rtol and ulps must be >= 0");
    return t;
  }

  Expectation expectation_of(const Json& j, const std::string& path) const {
    require_object(j, path, {"values", "tolerance", "error"});
    Expectation e;
    if (j.contains("error") == j.contains("values")) bad(path, "needs exactly one of 'values' and 'error'");
    if (j.contains("error")) {
      if (j.contains("tolerance")) bad(path + ".tolerance", "an error expectation has no tolerance");
      const std::string name = string_of(j["error"], path + ".error");
      e.error = parse_error_kind(name);
      if (!e.error) bad(path + ".error", fmt::format("unknown error kind '{}'", name));
      return e;
    }
    if (j.contains("tolerance")) e.tolerance = tolerance_of(j["tolerance"], path + ".tolerance");
    const Json& values = j["values"];
    if (!values.is_object()) bad(path + ".values", fmt::format("expected an object but got {}", type_name(values)));
    for (const auto& [name, value] : values.items()) {
      const std::string p = path + ".values." + name;
      ExpectedValue v{name,
                      tensor_of(value, p, false, true, device_ == Device::Meta ? Values::Omitted : Values::Required),
                      std::nullopt};
      if (value.contains("tolerance")) v.tolerance = tolerance_of(value["tolerance"], p + ".tolerance");
      e.values.push_back(std::move(v));
    }
    return e;
  }

  Case case_of(const Json& j) const {
    require_object(j, "",
                   {"format", "id", "clauses", "description", "seed", "tier", "device", "inputs", "program", "outputs",
                    "transforms", "after", "expect"});
    const std::string format = string_of(field(j, "", "format"), "format");
    if (format != kCaseFormat && format != kCaseFormat11)
      bad("format",
          fmt::format("unsupported format '{}' (this reader reads {} and {})", format, kCaseFormat, kCaseFormat11));
    format_11_ = format == kCaseFormat11;
    Case c;
    c.id = string_of(field(j, "", "id"), "id");
    if (c.id.empty()) bad("id", "must not be empty");
    if (j.contains("clauses")) c.clauses = string_list_of(j["clauses"], "clauses");
    if (j.contains("description")) c.description = string_of(j["description"], "description");
    if (j.contains("seed")) {
      const Json& seed = j["seed"];
      if (!seed.is_number_unsigned() && !(seed.is_number_integer() && seed.get<std::int64_t>() >= 0))
        bad("seed", fmt::format("expected an unsigned 64-bit integer but got {}", json_text(seed)));
      c.seed = seed.get<std::uint64_t>();
    }
    if (j.contains("tier")) {
      const std::string tier = string_of(j["tier"], "tier");
      const std::optional<Tier> parsed = parse_tier(tier);
      if (!parsed) bad("tier", fmt::format("unknown tier '{}' (expected smoke, pr, nightly or exhaustive)", tier));
      c.tier = *parsed;
    }

    if (j.contains("device")) {
      const std::string device = string_of(j["device"], "device");
      const std::optional<Device> parsed = parse_device(device);
      if (!parsed) bad("device", fmt::format("unknown device '{}' (expected cpu, meta or cuda)", device));
      c.device = *parsed;
    }
    device_ = c.device;

    std::set<std::string> defined;
    if (j.contains("inputs")) {
      const Json& inputs = j["inputs"];
      if (!inputs.is_object()) bad("inputs", fmt::format("expected an object but got {}", type_name(inputs)));
      for (const auto& [name, value] : inputs.items()) {
        if (name.empty()) bad("inputs", "an input name must not be empty");
        c.inputs.push_back(input_of(name, value, "inputs." + name, c.inputs));
        defined.insert(name);
      }
    }
    const Json& program = field(j, "", "program");
    if (!program.is_array()) bad("program", fmt::format("expected a list of op calls but got {}", type_name(program)));
    input_names_ = defined;
    for (std::size_t i = 0; i < program.size(); ++i)
      c.program.push_back(call_of(program[i], fmt::format("program[{}]", i), defined));
    c.outputs = string_list_of(field(j, "", "outputs"), "outputs");
    if (c.outputs.empty()) bad("outputs", "a case returns at least one value");
    for (std::size_t i = 0; i < c.outputs.size(); ++i) {
      if (!defined.count(c.outputs[i]))
        bad(fmt::format("outputs[{}]", i),
            fmt::format("'{}' is not defined by the inputs or the program", c.outputs[i]));
    }
    if (j.contains("transforms")) {
      const Json& transforms = j["transforms"];
      if (!transforms.is_array()) bad("transforms", fmt::format("expected a list but got {}", type_name(transforms)));
      for (std::size_t i = 0; i < transforms.size(); ++i) {
        CallMode mode = CallMode::Plain;
        c.transforms.push_back(transform_of(transforms[i], fmt::format("transforms[{}]", i), mode));
        c.call_modes.push_back(mode);
      }
      if (std::all_of(c.call_modes.begin(), c.call_modes.end(), [](CallMode m) { return m == CallMode::Plain; }))
        c.call_modes.clear();
    }
    if (j.contains("after")) after_of(j["after"], c);
    for (std::size_t i = 0; i < c.program.size(); ++i) {
      if (c.program[i].is_autograd_call() && c.transforms.empty())
        bad(fmt::format("program[{}].op", i),
            "the global autograd API is specified inside a transformed f only (AD-5.6)");
    }
    c.expect = expectation_of(field(j, "", "expect"), "expect");

    std::vector<std::string> results;
    try {
      results = result_names(c);
    } catch (const CaseError& e) {
      bad(e.json_path(), e.problem());
    }
    if (!c.expect.error) {
      std::set<std::string> expected;
      for (const ExpectedValue& v : c.expect.values) expected.insert(v.name);
      const std::set<std::string> produced(results.begin(), results.end());
      if (expected != produced)
        bad("expect.values", fmt::format("must give exactly the results [{}] but gives [{}]", fmt::join(results, ", "),
                                         fmt::join(expected, ", ")));
    }
    return c;
  }

 private:
  std::string file_;
  std::filesystem::path base_dir_;
  mutable Device device_ = Device::Cpu;  // of the case being read: meta cases carry no values
  mutable bool format_11_ = false;       // the case says format 1.1 (NOTE: [case features])
  mutable std::set<std::string> input_names_;
};

}  // namespace

TensorSpec parse_tensor(const Json& json, const std::string& json_path, const std::string& file,
                        const std::filesystem::path& base_dir, bool allow_omitted_values) {
  return CaseReader(file, base_dir)
      .tensor_of(json, json_path, true, false,
                 allow_omitted_values ? CaseReader::Values::Optional : CaseReader::Values::Required);
}

Case parse_case(const Json& json, const std::string& file, const std::filesystem::path& base_dir) {
  return CaseReader(file, base_dir).case_of(json);
}

Case parse_case_text(std::string_view text, const std::string& file, const std::filesystem::path& base_dir) {
  Json json;
  try {
    json = Json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw CaseError(file, "", fmt::format("invalid JSON: {}", e.what()));
  }
  return parse_case(json, file, base_dir);
}

Case read_case_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw CaseError(path.string(), "", "cannot open the case file");
  std::stringstream text;
  text << in.rdbuf();
  return parse_case_text(text.str(), path.string(), path.parent_path());
}

}  // namespace funcspec::conformance
