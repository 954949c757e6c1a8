// File: kube/base64.h
//
// Standard base64 (RFC 4648 §4, with padding) decoding for kubeconfig `*-data` fields, which
// hold base64 PEM (client-go decodes them with encoding/base64.StdEncoding before use).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace wasched::kube {

// DecodeBase64: the decoded bytes, or nullopt when `text` is not valid base64 (a character
// outside the alphabet, a length that is not a multiple of 4 once whitespace is removed, or
// padding in the middle). ASCII whitespace (kubeconfigs wrap long lines) is skipped. O(length).
// Thread-safe (pure).
[[nodiscard]] std::optional<std::string> DecodeBase64(std::string_view text);

}  // namespace wasched::kube
