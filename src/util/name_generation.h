// File: util/name_generation.h
//
// Deterministic stand-ins for the names the API server generates. Upstream, an object created
// with `metadata.generateName` gets `<generateName cut to 58 characters><5 random characters>`
// (k8s.io/apiserver/pkg/storage/names SimpleNameGenerator: maxNameLength 63, randomLength 5,
// characters of k8s.io/apimachinery/pkg/util/rand.String's alphabet
// "bcdfghjklmnpqrstvwxz2456789"). wasched has no randomness in its output (same input, same
// bytes), so the 5 characters are derived from a seed the caller builds from the input: the
// object's kind, namespace, generateName and its ordinal among objects sharing those.
//
//   GenerateName("sample-leader-", "Pod/default/sample-leader-/0")   // "sample-leader-k2x9b"
//
// Pure functions; thread-safe; no I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace wasched {

// kMaxGeneratedNameBase: the longest generateName prefix kept (63 − 5, upstream
// maxGeneratedNameLength).
inline constexpr size_t kMaxGeneratedNameBase = 58;
// kGeneratedSuffixLength: characters appended to the prefix (upstream randomLength).
inline constexpr size_t kGeneratedSuffixLength = 5;

// Fnv32a: FNV-1a 32-bit of `data` (Go hash/fnv New32a), continuing from `hash`. O(length).
[[nodiscard]] uint32_t Fnv32a(std::string_view data, uint32_t hash = 2166136261u);

// DerivedNameSuffix: 5 characters of rand.String's alphabet derived from `seed` (FNV-1a). The
// same seed always gives the same suffix. O(length of seed).
[[nodiscard]] std::string DerivedNameSuffix(std::string_view seed);

// SafeEncodeString: k8s.io/apimachinery/pkg/util/rand.SafeEncodeString: each character c
// becomes "bcdfghjklmnpqrstvwxz2456789"[c % 27] (the input is ASCII, e.g. a hash's decimal
// digits). O(length).
[[nodiscard]] std::string SafeEncodeString(std::string_view s);

// DerivedUid: wasched-only. A deterministic UUID-shaped uid (RFC 9562 version 8, i.e. custom)
// from `kind`, namespace and name, for an object read without metadata.uid and for the objects
// wasched's controllers create (where the API server would assign a random one). O(length).
[[nodiscard]] std::string DerivedUid(std::string_view kind, std::string_view namespace_,
                                     std::string_view name);

// GenerateName: `base` cut to kMaxGeneratedNameBase bytes + DerivedNameSuffix(seed), as the API
// server's SimpleNameGenerator.GenerateName with a seeded suffix. O(length).
[[nodiscard]] std::string GenerateName(std::string_view base, std::string_view seed);

}  // namespace wasched
