// File: validation/update_validation.h
//
// The declarative-validation update rules (`k8s.io/apimachinery/pkg/api/validate`: Immutable,
// UpdatePointer / UpdateSlice with NoSet, NoUnset, NoAddItem, NoRemoveItem) and ratcheting, as
// reusable checks for the per-kind validators (spec/was-v1.37.md §3.1, §3.4).
//
// Conventions shared by every validator in this folder:
//   - `old` is a pointer to the same field of the old object, or nullptr on create (and for
//     everything inside a list item that has no counterpart in the old list: a new item is
//     validated as on create).
//   - Ratcheting: a value equal to its old value is not validated again (Unchanged()), so an
//     already-stored value that a disabled gate or a newer rule would refuse stays valid.
//   - Short-circuit: the DV "short-circuit" rules of a field (required, forbidden-by-gate,
//     immutable, update, maxItems) run first; when one of them fails, the field's other rules
//     and its contents are not checked (upstream reports only the first layer, e.g. case A58).
//
//   if (Unchanged(t.disruption_mode, old)) return;
//   if (CheckImmutable(t.disruption_mode, old, path, errs)) return;   // Invalid, immutable
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "validation/field_errors.h"

namespace wasched::validation {

// Unchanged: `old` exists and equals `value` (ratcheting). O(size of the value).
template <typename T>
[[nodiscard]] bool Unchanged(const T& value, const T* old) {
  return old != nullptr && *old == value;
}

// CheckImmutable: DV `immutable`: on update, any change (set, unset, modify) is
// `Invalid <path>: field is immutable` (origin immutable). True when reported.
template <typename T>
bool CheckImmutable(const T& value, const T* old, const std::string& path, ErrorList* errs) {
  if (old == nullptr || *old == value) return false;
  errs->push_back(Immutable(path));
  return true;
}

// CheckNoSetNoUnset: DV `update=NoSet,NoUnset` on a pointer / optional field: unset → set is
// "field cannot be set once created", set → unset "field cannot be cleared once set" (Invalid,
// origin update). `old_set` nullptr on create. True when reported.
bool CheckNoSetNoUnset(bool set, const bool* old_set, const std::string& path, ErrorList* errs);

// FindByName: the first item of `list` whose `name` is `name` (listType=map key), or nullptr.
// O(items).
template <typename T>
[[nodiscard]] const T* FindByName(const std::vector<T>& list, const std::string& name) {
  for (const T& item : list) {
    if (item.name == name) return &item;
  }
  return nullptr;
}

// CheckNoAddRemoveItems: DV `update=NoAddItem,NoRemoveItem` on a list keyed by `name`: each new
// item without an old counterpart is `Forbidden <path>[i]: item may not be added`, each old item
// missing from the new list one `Forbidden <path>: item may not be removed` (origin update).
// Nothing on create. True when reported. O(n · m).
template <typename T>
bool CheckNoAddRemoveItems(const std::vector<T>& list, const std::vector<T>* old,
                           const std::string& path, ErrorList* errs) {
  if (old == nullptr) return false;
  bool reported = false;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (FindByName(*old, list[i].name) == nullptr) {
      errs->push_back(ItemAddedError(Index(path, i)));
      reported = true;
    }
  }
  for (const T& item : *old) {
    if (FindByName(list, item.name) == nullptr) {
      errs->push_back(ItemRemovedError(path));
      reported = true;
    }
  }
  return reported;
}

// CheckDuplicateNames: listType=map uniqueness: every item whose `name` an earlier item has is
// `Duplicate <path>[i]` (value: the name). O(n²); callers check maxItems first.
template <typename T>
void CheckDuplicateNames(const std::vector<T>& list, const std::string& path, ErrorList* errs) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (list[j].name == list[i].name) {
        errs->push_back(Duplicate(Index(path, i), Quote(list[i].name)));
        break;
      }
    }
  }
}

}  // namespace wasched::validation
