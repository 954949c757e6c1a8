// File: util/sha1.h
//
// SHA-1 as lower-case hex, through OpenSSL's libcrypto: the hash JobSet and LeaderWorkerSet put
// in their names and labels (jobset pkg/controllers sha1Hash: `jobset.sigs.k8s.io/job-key`, the
// KEP-969 Workload / PodGroup name suffixes; lws pkg/utils Sha1Hash:
// `leaderworkerset.sigs.k8s.io/group-key`). Not for security.
//
//   Sha1Hex("default/js-rj-0")   // 40 hex characters
//
// Thread-safe; O(length).
#pragma once

#include <string>
#include <string_view>

namespace wasched {

// Sha1Hex: the 40-character hex SHA-1 digest of `data` (Go hex.EncodeToString(sha1.Sum)).
[[nodiscard]] std::string Sha1Hex(std::string_view data);

}  // namespace wasched
