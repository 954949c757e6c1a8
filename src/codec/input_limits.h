// File: codec/input_limits.h
//
// The input limits of the codec (issue 10): every manifest wasched reads is
// bounded in file size, object size, nesting depth, string length, object count and alias
// expansion, so that hostile input gets a clear error (file, document, field path; exit 1)
// instead of exhausting memory, the stack or time. Each limit is far above what a real cluster
// dump holds, and says where that bound comes from; README "Input limits" lists them for users.
// Other layers may hold themselves to the same limits (e.g. objects the Job controller creates,
// cli/compile_command.cc); codec/ itself also reaches them as codec::internal::*.
#pragma once

#include <cstddef>
#include <cstdint>

#include "util/field_error.h"

namespace wasched::codec {

// kMaxFileBytes: one file, or stdin. Kubernetes' documented scalability limits are 5,000 nodes
// and 150,000 pods (kubernetes.io/docs/setup/best-practices/cluster-large); such a cluster dumped
// with `kubectl get -o yaml` is about 150,000 × 5 KiB ≈ 750 MB. A file beyond 1 GiB (or an
// endless stream such as /dev/zero) stops being read at the limit with an error.
inline constexpr size_t kMaxFileBytes = size_t{1} << 30;

// kMaxObjectBytes: a document that is one object (not a List) beyond this is an error. The API
// server rejects request bodies over 3 MiB (k8s.io/apiserver/pkg/server/config.go
// MaxRequestBodyBytes; etcd stores at most 1.5 MiB), so no object of a real cluster comes near;
// 8 MiB leaves room for YAML's indentation and a dump's status and managedFields.
// List documents are bounded by kMaxFileBytes and kMaxObjects instead.
inline constexpr size_t kMaxObjectBytes = size_t{8} << 20;

// kMaxNestingDepth: maps and lists inside each other. Kubernetes' decoders stop at 10,000
// (go-yaml "exceeded max depth of 10000"; encoding/json / sigs.k8s.io/json nesting limit 10000);
// the deepest field of a v1.37 object (List > items > spec > affinity > … > values) is about
// 15 levels, so
// wasched reports its own error at 256 levels.
inline constexpr int kMaxNestingDepth = 256;

// kMaxScalarBytes: one string, number or key. No field of an object the API server accepted can
// be longer than its 3 MiB request limit (above).
inline constexpr size_t kMaxScalarBytes = size_t{3} << 20;

// kMaxObjects: objects of one load: every document that is not a List and every List item,
// whatever it holds (skipped kinds, `{}` and malformed items included). Kubernetes'
// scalability limit is 150,000 pods and 5,000 nodes (above); 1,000,000 leaves room for
// PodGroups, Workloads and the rest.
inline constexpr int64_t kMaxObjects = 1'000'000;

// kMaxKeptErrors: the errors one load keeps; beyond them only a count is kept, reported as a
// last error "N more errors not shown". The CLI prints at most as many error lines per command
// (cli::PrintErrors). A real manifest with more errors than this is fixed in rounds anyway.
inline constexpr int64_t kMaxKeptErrors = 1'000;

// MoreErrors: the error that stands for `count` errors beyond kMaxKeptErrors.
[[nodiscard]] InputError MoreErrors(int64_t count);

// Alias expansion (billion laughs): a YAML alias is a reference, not a copy (codec/event_tape.h);
// decoders may visit at most 2 × document bytes + 1024 nodes (Diagnostics' visit budget,
// codec/yaml_reader.h) and merge keys (`<<: *base`) may add at most as many map entries
// before the document is an error. Real manifests visit each node once.
[[nodiscard]] constexpr int64_t ExpansionBudget(size_t document_bytes) {
  return static_cast<int64_t>(document_bytes) * 2 + 1024;
}

namespace internal {
using codec::ExpansionBudget;
using codec::kMaxFileBytes;
using codec::kMaxNestingDepth;
using codec::kMaxObjectBytes;
using codec::kMaxKeptErrors;
using codec::kMaxObjects;
using codec::kMaxScalarBytes;
}  // namespace internal

}  // namespace wasched::codec
