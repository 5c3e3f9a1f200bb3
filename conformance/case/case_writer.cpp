#include "conformance/case/case_writer.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <variant>
#include <vector>

#include "conformance/case/base64.h"
#include "conformance/case/npy.h"

namespace funcspec::conformance {
namespace {

// A float32 in its shortest decimal form when that form reads back to the same float through
// double (almost always), else the double that holds it exactly.
Json float32_to_json(float value) {
  if (!std::isfinite(value)) return float_to_json(value);
  const std::string shortest = fmt::format("{}", value);
  const double via_double = std::strtod(shortest.c_str(), nullptr);
  if (static_cast<float>(via_double) == value) return via_double;
  return static_cast<double>(value);
}

Json data_to_json(const TensorData& data) {
  Json values = Json::array();
  for (std::int64_t i = 0; i < data.numel(); ++i) {
    switch (data.dtype) {
      case DType::Bool: values.push_back(data.bytes[static_cast<std::size_t>(i)] != 0); break;
      case DType::Int64: values.push_back(data.element_as_int(i)); break;
      case DType::Float32: values.push_back(float32_to_json(static_cast<float>(data.element_as_double(i)))); break;
      case DType::Float64: values.push_back(float_to_json(data.element_as_double(i))); break;
      case DType::Oracle: throw CaseError("", "", "the oracle dtype cannot appear in a case");
    }
  }
  return values;
}

Json attr_to_json(const AttrValue& value) {
  struct Writer {
    Json operator()(std::monostate) const { return nullptr; }
    Json operator()(bool v) const { return v; }
    Json operator()(std::int64_t v) const { return v; }
    Json operator()(double v) const { return float_to_json(v); }
    Json operator()(const std::string& v) const { return v; }
    Json operator()(const std::vector<std::int64_t>& v) const { return v; }
    Json operator()(DType v) const { return std::string(dtype_name(v)); }
    Json operator()(const Scalar& v) const {
      if (v.is_bool()) return v.to<bool>();
      if (v.is_integral()) return v.to<std::int64_t>();
      return float_to_json(v.to<double>());
    }
    Json operator()(const std::vector<double>& v) const {
      Json out = Json::array();
      for (double x : v) out.push_back(float_to_json(x));
      return out;
    }
  };
  return std::visit(Writer{}, value);
}

Json optional_int_to_json(const std::optional<std::int64_t>& v) { return v ? Json(*v) : Json(nullptr); }

Json dims_to_json(const DimSpec& dims) {
  switch (dims.form) {
    case DimSpec::Form::All: return optional_int_to_json(dims.all);
    case DimSpec::Form::ByPosition: {
      Json out = Json::array();
      for (const auto& d : dims.by_position) out.push_back(optional_int_to_json(d));
      return out;
    }
    case DimSpec::Form::ByName: {
      Json out = Json::object();
      for (const auto& [name, d] : dims.by_name) out[name] = optional_int_to_json(d);
      return out;
    }
  }
  return nullptr;
}

Json argnums_to_json(const ArgNums& argnums) {
  auto one = [](const std::variant<std::int64_t, std::string>& s) -> Json {
    return std::visit([](const auto& v) { return Json(v); }, s);
  };
  if (!argnums.written_as_list && argnums.selectors.size() == 1) return one(argnums.selectors[0]);
  Json out = Json::array();
  for (const auto& s : argnums.selectors) out.push_back(one(s));
  return out;
}

Json named_tensors_to_json(const std::vector<NamedTensor>& tensors) {
  Json out = Json::object();
  for (const NamedTensor& t : tensors) out[t.name] = tensor_to_json(t.tensor);
  return out;
}

Json step_to_json(const OpCall& call) {
  Json step = Json::object();
  step["out"] = call.outs;
  step["op"] = call.op;
  Json args = Json::array();
  for (const auto& a : call.args) args.push_back(a ? Json(*a) : Json(nullptr));
  step["args"] = args;
  Json attrs = Json::object();
  for (const auto& [name, value] : call.attrs.values()) attrs[name] = attr_to_json(value);
  step["attrs"] = attrs;
  if (call.no_grad) step["no_grad"] = true;
  if (!call.grad_modes.empty()) {
    Json modes = Json::array();
    for (CallMode mode : call.grad_modes) modes.push_back(std::string(call_mode_name(mode)));
    step["grad_modes"] = modes;
  }
  if (!call.stored_as.empty()) step["stored_as"] = call.stored_as;
  return step;
}

Json steps_to_json(const std::vector<OpCall>& steps) {
  Json out = Json::array();
  for (const OpCall& call : steps) out.push_back(step_to_json(call));
  return out;
}

Json transform_to_json(const Transform& transform) {
  Json out = Json::object();
  out["transform"] = std::string(transform_name(transform));
  struct Writer {
    Json& out;
    void operator()(const VmapTransform& t) const {
      out["in_dims"] = dims_to_json(t.in_dims);
      out["out_dims"] = dims_to_json(t.out_dims);
      out["randomness"] = std::string(randomness_name(t.randomness));
      out["chunk_size"] = optional_int_to_json(t.chunk_size);
    }
    void operator()(const GradTransform& t) const {
      out["argnums"] = argnums_to_json(t.argnums);
      out["has_aux"] = t.has_aux;
    }
    void operator()(const VjpTransform& t) const {
      out["cotangents"] = named_tensors_to_json(t.cotangents);
      out["has_aux"] = t.has_aux;
      if (!t.before_call.empty()) out["before_call"] = steps_to_json(t.before_call);
    }
    void operator()(const JvpTransform& t) const {
      out["tangents"] = named_tensors_to_json(t.tangents);
      if (!t.linearize) out["has_aux"] = t.has_aux;
      if (!t.before_call.empty()) out["before_call"] = steps_to_json(t.before_call);
    }
    void operator()(const JacobianTransform& t) const {
      out["argnums"] = argnums_to_json(t.argnums);
      out["has_aux"] = t.has_aux;
      if (t.forward) {
        out["randomness"] = std::string(randomness_name(t.randomness));
      } else {
        out["chunk_size"] = optional_int_to_json(t.chunk_size);
      }
    }
    void operator()(const HessianTransform& t) const { out["argnums"] = argnums_to_json(t.argnums); }
    void operator()(const FunctionalizeTransform& t) const { out["remove"] = t.remove; }
    void operator()(const FunctionalCallTransform& t) const {
      out["parameters"] = t.parameters;
      out["buffers"] = t.buffers;
      out["strict"] = t.strict;
      out["tie_weights"] = t.tie_weights;
    }
  };
  std::visit(Writer{out}, transform);
  return out;
}

Json tolerance_to_json(const Tolerance& t) { return Json{{"atol", t.atol}, {"rtol", t.rtol}, {"ulps", t.ulps}}; }

void collect_npy(const TensorSpec& spec, std::vector<const TensorSpec*>& out) {
  if (!spec.npy_file.empty()) out.push_back(&spec);
}

}  // namespace

Json tensor_to_json(const TensorSpec& tensor) {
  // A meta case's tensor is its dtype and shape alone. Beside an .npy file they are redundant (the
  // reader checks that they agree), but let a person read the case without opening its .npy files.
  Json out = Json::object();
  out["dtype"] = std::string(dtype_name(tensor.data.dtype));
  out["shape"] = tensor.data.shape;
  if (!tensor.values_omitted) {
    if (!tensor.npy_file.empty()) {
      out["npy"] = tensor.npy_file;
    } else if (tensor.base64) {
      out["base64"] = base64_encode(tensor.data.bytes);
    } else {
      out["data"] = data_to_json(tensor.data);
    }
  }
  if (!tensor.layout.is_contiguous()) {
    Json layout = Json::object();
    if (!tensor.layout.permute.empty()) layout["permute"] = tensor.layout.permute;
    if (!tensor.layout.slice_start.empty())
      layout["slice"] = Json{{"start", tensor.layout.slice_start}, {"step", tensor.layout.slice_step}};
    if (tensor.layout.strides) {
      layout["strides"] = *tensor.layout.strides;
      layout["offset"] = tensor.layout.offset;
    }
    out["layout"] = layout;
  }
  return out;
}

Json case_to_json(const Case& c) {
  Json out = Json::object();
  out["format"] = std::string(case_features(c).empty() ? kCaseFormat : kCaseFormat11);
  out["id"] = c.id;
  out["clauses"] = c.clauses;
  out["description"] = c.description;
  out["seed"] = c.seed;
  out["tier"] = std::string(tier_name(c.tier));
  out["device"] = std::string(device_name(c.device));
  Json inputs = Json::object();
  for (const CaseInput& in : c.inputs) {
    if (const auto* literal = std::get_if<LiteralSpec>(&in.value)) {
      inputs[in.name] = Json{{"literal", attr_to_json(literal->value)}};
    } else if (!in.alias_of.empty()) {
      // The values are the base's: only the view's geometry is written.
      const auto& spec = std::get<TensorSpec>(in.value);
      inputs[in.name] = Json{{"alias_of", in.alias_of},
                             {"dtype", std::string(dtype_name(spec.data.dtype))},
                             {"shape", spec.data.shape},
                             {"layout", Json{{"strides", *spec.layout.strides}, {"offset", spec.layout.offset}}}};
    } else {
      inputs[in.name] = tensor_to_json(std::get<TensorSpec>(in.value));
    }
  }
  out["inputs"] = inputs;
  out["program"] = steps_to_json(c.program);
  out["outputs"] = c.outputs;
  Json transforms = Json::array();
  for (std::size_t i = 0; i < c.transforms.size(); ++i) {
    Json t = transform_to_json(c.transforms[i]);
    if (c.call_mode(i) != CallMode::Plain) t["called_under"] = std::string(call_mode_name(c.call_mode(i)));
    transforms.push_back(t);
  }
  out["transforms"] = transforms;
  if (!c.after.empty() || !c.after_outputs.empty())
    out["after"] = Json{{"program", steps_to_json(c.after)}, {"outputs", c.after_outputs}};
  Json expect = Json::object();
  if (c.expect.error) {
    expect["error"] = std::string(error_kind_name(*c.expect.error));
  } else {
    Json values = Json::object();
    for (const ExpectedValue& v : c.expect.values) {
      Json tensor = tensor_to_json(v.tensor);
      if (v.tolerance) tensor["tolerance"] = tolerance_to_json(*v.tolerance);
      values[v.name] = tensor;
    }
    expect["values"] = values;
    expect["tolerance"] = tolerance_to_json(c.expect.tolerance);
  }
  out["expect"] = expect;
  return out;
}

std::string write_case_text(const Case& c) { return case_to_json(c).dump(2) + "\n"; }

void write_case_file(const Case& c, const std::filesystem::path& path) {
  std::vector<const TensorSpec*> npy_tensors;
  for (const CaseInput& in : c.inputs) {
    if (const auto* spec = std::get_if<TensorSpec>(&in.value)) collect_npy(*spec, npy_tensors);
  }
  for (const Transform& t : c.transforms) {
    if (const auto* vjp = std::get_if<VjpTransform>(&t)) {
      for (const NamedTensor& n : vjp->cotangents) collect_npy(n.tensor, npy_tensors);
    }
    if (const auto* jvp = std::get_if<JvpTransform>(&t)) {
      for (const NamedTensor& n : jvp->tangents) collect_npy(n.tensor, npy_tensors);
    }
  }
  for (const ExpectedValue& v : c.expect.values) collect_npy(v.tensor, npy_tensors);
  for (const TensorSpec* spec : npy_tensors) write_npy(path.parent_path() / spec->npy_file, spec->data);
  std::ofstream out(path);
  out << write_case_text(c);
  if (!out) throw CaseError(path.string(), "", "cannot write the case file");
}

}  // namespace funcspec::conformance
