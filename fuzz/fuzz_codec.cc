// File: fuzz/fuzz_codec.cc
//
// libFuzzer target: bytes → one manifest file (YAML stream or JSON) → codec::LoadString (also as
// validate loads, keeping the valid objects), and the
// same bytes through codec::ConvertString (both targets, YAML and JSON output). Either objects
// with warnings or a non-empty list of located InputErrors; nothing may crash.
#include <cstddef>
#include <cstdint>

#include "codec/convert.h"
#include "codec/loader.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wasched;
  const std::string text = fuzz::Text(data, size);
  auto loaded = codec::LoadString(text, "fuzz.yaml");
  if (!loaded) fuzz::CheckErrors(loaded.error());
  // validate's mode: objects with errors are left out, the rest kept (a failed Node once made the
  // loader read nodes.back() of an empty list).
  codec::LoadOptions keep;
  keep.keep_valid_objects = true;
  auto kept = codec::LoadString(text, "fuzz.yaml", keep);
  if (!kept) fuzz::CheckErrors(kept.error());

  for (codec::ConvertFormat format : {codec::ConvertFormat::kYaml, codec::ConvertFormat::kJson}) {
    codec::ConvertOptions options;
    options.format = format;
    options.target = format == codec::ConvertFormat::kYaml
                         ? std::string(codec::kConvertTargetV1beta1)
                         : std::string(codec::kConvertTargetV1alpha3);
    auto converted = codec::ConvertString(text, "fuzz.yaml", options);
    if (!converted) fuzz::CheckErrors(converted.error());
  }
  return 0;
}
