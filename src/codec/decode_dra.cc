// File: codec/decode_dra.cc
//
// resource.k8s.io/v1 decoders (see decode_dra.h).
#include "codec/decode_dra.h"

#include <string_view>

#include "codec/decode_common.h"
#include "codec/decode_core.h"

namespace wasched::codec::internal {
namespace {

// Fields that exist upstream but do not change which devices wasched allocates.
constexpr std::string_view kIgnoredSliceSpecFields[] = {"sharedCounters"};
constexpr std::string_view kIgnoredDeviceFields[] = {
    "consumesCounters", "taints", "bindsToNode", "bindingConditions", "bindingFailureConditions",
    "allowMultipleAllocations", "nodeName", "nodeSelector", "allNodes"};
constexpr std::string_view kIgnoredExactFields[] = {"tolerations", "capacity"};
constexpr std::string_view kIgnoredClaimStatusFields[] = {"devices"};
constexpr std::string_view kIgnoredAllocationFields[] = {"nodeSelector", "allocationTimestamp"};
constexpr std::string_view kIgnoredResultFields[] = {
    "adminAccess", "tolerations", "bindingConditions", "bindingFailureConditions", "shareID",
    "consumedCapacity"};

void DecodeSelectors(const Reader& r, std::vector<api::DeviceSelector>* out) {
  r.ForEachItem([&](size_t, const Reader& item) {
    api::DeviceSelector& selector = out->emplace_back();
    bool has_cel = false;
    item.ForEachField([&](std::string_view key, const Reader& f) {
      if (key != "cel") return false;
      f.ForEachField([&](std::string_view ckey, const Reader& cf) {
        if (ckey != "expression") return false;
        has_cel = true;
        cf.Read(&selector.cel_expression);
        return true;
      });
      return true;
    });
    if (!has_cel) {
      item.diagnostics()->AddError(FieldError{FieldErrorType::kRequired, item.ChildPath("cel"),
                                              "", "exactly one selector type is required", ""});
    }
  });
}

void DecodeAllocationMode(const Reader& r, api::DeviceAllocationMode* out) {
  std::string mode;
  r.Read(&mode);
  if (mode.empty() || mode == "ExactCount") {
    *out = api::DeviceAllocationMode::kExactCount;
  } else if (mode == "All") {
    *out = api::DeviceAllocationMode::kAll;
  } else {
    r.Error(FieldErrorType::kNotSupported, QuoteValue(mode),
            "supported values: \"All\", \"ExactCount\"");
  }
}

// DecodeExact: the fields of ExactDeviceRequest / DeviceSubRequest (`name` only in the latter).
void DecodeExact(const Reader& r, bool subrequest, api::ExactDeviceRequest* out) {
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "name" && subrequest) f.Read(&out->name);
    else if (key == "deviceClassName") f.Read(&out->device_class_name);
    else if (key == "selectors") DecodeSelectors(f, &out->selectors);
    else if (key == "allocationMode") DecodeAllocationMode(f, &out->allocation_mode);
    else if (key == "count") {
      f.Read(&out->count);
      out->count_specified = !f.IsNull();
    }
    else if (key == "adminAccess") f.Read(&out->admin_access);
    else return IsOneOf(key, kIgnoredExactFields);
    return true;
  });
}

void DecodeClaimSpec(const Reader& r, api::ResourceClaimSpec* spec) {
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key != "devices") return false;
    f.ForEachField([&](std::string_view dkey, const Reader& df) {
      if (dkey == "requests") {
        df.ForEachItem([&](size_t, const Reader& item) {
          api::DeviceRequest& request = spec->requests.emplace_back();
          item.ForEachField([&](std::string_view rkey, const Reader& rf) {
            if (rkey == "name") {
              rf.Read(&request.name);
            } else if (rkey == "exactly") {
              if (!rf.IsNull()) DecodeExact(rf, /*subrequest=*/false, &request.exactly.emplace());
            } else if (rkey == "firstAvailable") {
              rf.ForEachItem([&](size_t, const Reader& sub) {
                DecodeExact(sub, /*subrequest=*/true, &request.first_available.emplace_back());
              });
            } else {
              return false;
            }
            return true;
          });
        });
      } else if (dkey == "constraints") {
        df.ForEachItem([&](size_t, const Reader& item) {
          api::DeviceConstraint& c = spec->constraints.emplace_back();
          item.ForEachField([&](std::string_view ckey, const Reader& cf) {
            if (ckey == "requests") cf.Read(&c.requests);
            else if (ckey == "matchAttribute") cf.Read(&c.match_attribute);
            else if (ckey == "distinctAttribute") cf.Read(&c.distinct_attribute);
            else return false;
            return true;
          });
        });
      } else if (dkey == "config") {
        // opaque driver configuration: does not change the allocation; a non-list is a decode
        // error as upstream's
        df.ForEachItem([](size_t, const Reader& item) { item.ForEachField(
            [](std::string_view, const Reader&) { return true; }); });
      } else {
        return false;
      }
      return true;
    });
    return true;
  });
}

void DecodeAttribute(const Reader& r, api::DeviceAttribute* out) {
  int set = 0;
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (f.IsNull()) return key == "int" || key == "bool" || key == "string" || key == "version";
    if (key == "int") {
      out->kind = api::DeviceAttribute::Kind::kInt;
      f.Read(&out->int_value);
    } else if (key == "bool") {
      out->kind = api::DeviceAttribute::Kind::kBool;
      f.Read(&out->bool_value);
    } else if (key == "string") {
      out->kind = api::DeviceAttribute::Kind::kString;
      f.Read(&out->string_value);
    } else if (key == "version") {
      out->kind = api::DeviceAttribute::Kind::kVersion;
      f.Read(&out->string_value);
      if (auto v = api::ParseSemVer(out->string_value)) {
        out->version = std::move(*v);
      } else {
        f.Error(FieldErrorType::kInvalid, QuoteValue(out->string_value),
                "must be a string compatible with semver.org spec 2.0.0");
      }
    } else {
      return false;
    }
    ++set;
    return true;
  });
  if (set != 1) {
    r.Error(FieldErrorType::kInvalid, "",
            set == 0 ? "exactly one value must be specified" : "exactly one value must be "
                                                               "specified, not several");
  }
}

void DecodeDevice(const Reader& r, api::Device* out) {
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "name") {
      f.Read(&out->name);
    } else if (key == "attributes") {
      f.ForEachEntry([&](std::string_view name, const Reader& af) {
        auto& entry = out->attributes.emplace_back(std::string(name), api::DeviceAttribute{});
        DecodeAttribute(af, &entry.second);
      });
    } else if (key == "capacity") {
      f.ForEachEntry([&](std::string_view name, const Reader& cf) {
        cf.ForEachField([&](std::string_view ckey, const Reader& vf) {
          if (ckey == "requestPolicy") return true;  // consumable capacity: not modelled
          if (ckey != "value") return false;
          const std::optional<std::string> text = vf.ScalarText();
          if (!text) return true;
          auto q = api::Quantity::Parse(*text);
          if (!q) {
            vf.Error(FieldErrorType::kInvalid, QuoteValue(*text), q.error());
          } else if (q->IsNegative()) {
            // Upstream validateDeviceCapacity: ValidateNonnegativeQuantity.
            vf.Error(FieldErrorType::kInvalid, QuoteValue(*text),
                     "must be greater than or equal to 0");
          } else {
            out->capacity.emplace_back(std::string(name), *q);
          }
          return true;
        });
      });
    } else {
      return IsOneOf(key, kIgnoredDeviceFields);
    }
    return true;
  });
}

}  // namespace

void DecodeDeviceClass(const Reader& root, api::DeviceClass* out) {
  DecodeTopLevel(root, /*namespaced=*/false, &out->meta, [&](std::string_view key,
                                                             const Reader& f) {
    if (key != "spec") return false;
    f.ForEachField([&](std::string_view skey, const Reader& sf) {
      if (skey == "selectors") DecodeSelectors(sf, &out->selectors);
      else if (skey == "config") {
        // opaque driver configuration (a list of DeviceClassConfiguration): only its shape
        // is checked, a non-list is a decode error as upstream's
        sf.ForEachItem([](size_t, const Reader& item) { item.ForEachField(
            [](std::string_view, const Reader&) { return true; }); });
      } else if (skey == "extendedResourceName") {}
      else return false;
      return true;
    });
    return true;
  });
}

void DecodeResourceSlice(const Reader& root, api::ResourceSlice* out) {
  DecodeTopLevel(root, /*namespaced=*/false, &out->meta, [&](std::string_view key,
                                                             const Reader& f) {
    if (key != "spec") return false;
    f.ForEachField([&](std::string_view skey, const Reader& sf) {
      if (skey == "driver") {
        sf.Read(&out->driver);
      } else if (skey == "pool") {
        sf.ForEachField([&](std::string_view pkey, const Reader& pf) {
          if (pkey == "name") pf.Read(&out->pool.name);
          else if (pkey == "generation") pf.Read(&out->pool.generation);
          else if (pkey == "resourceSliceCount") pf.Read(&out->pool.resource_slice_count);
          else return false;
          return true;
        });
      } else if (skey == "nodeName") {
        sf.Read(&out->node_name);
      } else if (skey == "nodeSelector") {
        if (sf.IsNull()) return true;
        auto& terms = out->node_selector.emplace();
        sf.ForEachField([&](std::string_view nkey, const Reader& nf) {
          if (nkey != "nodeSelectorTerms") return false;
          DecodeNodeSelectorTerms(nf, &terms);
          return true;
        });
      } else if (skey == "allNodes") {
        sf.Read(&out->all_nodes);
      } else if (skey == "perDeviceNodeSelection") {
        sf.Read(&out->per_device_node_selection);
        if (out->per_device_node_selection) {
          sf.Warn("field \"" + sf.Path() +
                  "\" is not supported by wasched: the slice's devices are not allocated");
        }
      } else if (skey == "devices") {
        sf.ForEachItem([&](size_t, const Reader& item) {
          DecodeDevice(item, &out->devices.emplace_back());
        });
      } else {
        return IsOneOf(skey, kIgnoredSliceSpecFields);
      }
      return true;
    });
    return true;
  });
}

void DecodeResourceClaim(const Reader& root, api::ResourceClaim* out) {
  DecodeTopLevel(root, /*namespaced=*/true, &out->meta, [&](std::string_view key,
                                                            const Reader& f) {
    if (key == "spec") {
      DecodeClaimSpec(f, &out->spec);
    } else if (key == "status") {
      f.ForEachField([&](std::string_view skey, const Reader& sf) {
        if (skey == "allocation") {
          if (sf.IsNull()) return true;
          auto& results = out->allocation.emplace();
          sf.ForEachField([&](std::string_view akey, const Reader& af) {
            if (akey != "devices") return IsOneOf(akey, kIgnoredAllocationFields);
            af.ForEachField([&](std::string_view dkey, const Reader& df) {
              if (dkey == "config") return true;
              if (dkey != "results") return false;
              df.ForEachItem([&](size_t, const Reader& item) {
                api::DeviceRequestAllocationResult& r = results.emplace_back();
                item.ForEachField([&](std::string_view rkey, const Reader& rf) {
                  if (rkey == "request") rf.Read(&r.request);
                  else if (rkey == "driver") rf.Read(&r.driver);
                  else if (rkey == "pool") rf.Read(&r.pool);
                  else if (rkey == "device") rf.Read(&r.device);
                  else return IsOneOf(rkey, kIgnoredResultFields);
                  return true;
                });
              });
              return true;
            });
            return true;
          });
        } else if (skey == "reservedFor") {
          sf.ForEachItem([&](size_t, const Reader& item) {
            api::ResourceClaimConsumerReference& ref = out->reserved_for.emplace_back();
            item.ForEachField([&](std::string_view rkey, const Reader& rf) {
              if (rkey == "resource") rf.Read(&ref.resource);
              else if (rkey == "name") rf.Read(&ref.name);
              else if (rkey == "uid" || rkey == "apiGroup") {}
              else return false;
              return true;
            });
          });
        } else {
          return IsOneOf(skey, kIgnoredClaimStatusFields);
        }
        return true;
      });
    } else {
      return false;
    }
    return true;
  });
}

void DecodeResourceClaimTemplate(const Reader& root, api::ResourceClaimTemplate* out) {
  DecodeTopLevel(root, /*namespaced=*/true, &out->meta, [&](std::string_view key,
                                                            const Reader& f) {
    if (key != "spec") return false;
    f.ForEachField([&](std::string_view skey, const Reader& sf) {
      if (skey == "spec") DecodeClaimSpec(sf, &out->spec);
      else if (skey == "metadata") {}  // labels/annotations of the claims made from it
      else return false;
      return true;
    });
    return true;
  });
}

void DecodePodResourceClaims(const Reader& r, std::vector<api::PodResourceClaim>* out) {
  DecodeClaimReferences(r, out);
}

void DecodeContainerClaims(const Reader& r, std::vector<api::ResourceClaimRequest>* out) {
  r.ForEachItem([&](size_t, const Reader& item) {
    api::ResourceClaimRequest& claim = out->emplace_back();
    item.ForEachField([&](std::string_view key, const Reader& f) {
      if (key == "name") f.Read(&claim.name);
      else if (key == "request") f.Read(&claim.request);
      else return false;
      return true;
    });
  });
}

}  // namespace wasched::codec::internal
