// File: util/key_order.h
//
// OrderByKey: sorts item indices by a string key in byte order (the order std::string's
// operator< gives), mostly with integer compares: keys of one run usually share a long prefix
// ("sched-test/pod-…"), so the common prefix of all keys is skipped once and the next 8 bytes,
// read big-endian into an integer (zero-padded: a shorter key sorts first, as names hold no NUL
// byte), decide nearly every compare; only equal heads compare the rest of the strings.
//
//   std::vector<int32_t> order = {…};               // indices to order
//   OrderByKey(order, [&](int32_t i) { return std::string_view(keys[i]); });
//
// Ties (equal keys) are ordered by index. Cost: O(n × common prefix) + a radix sort of the heads
// (≤ 8 passes of O(n + 256)) + a compare sort of each run of equal heads; allocation: two
// vectors of n items. Not for keys holding NUL bytes (they would tie with the
// padding; the order is then still total but may differ from the string order).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace wasched {

template <typename KeyFn>
void OrderByKey(std::vector<int32_t>& indices, KeyFn&& key) {
  if (indices.size() < 2) return;
  const std::string_view first = key(indices.front());
  size_t common = first.size();
  for (int32_t i : indices) {
    const std::string_view k = key(i);
    size_t l = 0;
    const size_t limit = std::min(common, k.size());
    while (l < limit && k[l] == first[l]) ++l;
    common = l;
  }
  // Item: the 8 bytes after the common prefix (big-endian) and the index; the rest of a key is
  // read from `key` only when two heads tie.
  struct Item {
    uint64_t head;
    int32_t index;
  };
  std::vector<Item> items;
  items.reserve(indices.size());
  for (int32_t i : indices) {
    const std::string_view k = key(i).substr(common);
    uint64_t head = 0;
    for (size_t b = 0; b < 8; ++b) {
      head = (head << 8) | (b < k.size() ? static_cast<unsigned char>(k[b]) : 0u);
    }
    items.push_back({head, i});
  }
  const size_t skip = common + 8;
  auto rest = [&](int32_t i) {
    const std::string_view k = key(i);
    return k.size() > skip ? k.substr(skip) : std::string_view{};
  };
  auto less = [&](const Item& a, const Item& b) {
    if (a.head != b.head) return a.head < b.head;
    if (const int c = rest(a.index).compare(rest(b.index)); c != 0) return c < 0;
    return a.index < b.index;
  };
  if (items.size() < 64) {
    std::sort(items.begin(), items.end(), less);
  } else {
    // LSD radix sort on the head, one byte per pass (a pass where every item has the same byte
    // is skipped), then runs of equal heads by the full compare.
    std::vector<Item> scratch(items.size());
    for (int shift = 0; shift < 64; shift += 8) {
      size_t count[257] = {};
      for (const Item& it : items) ++count[((it.head >> shift) & 0xff) + 1];
      if (std::any_of(count + 1, count + 257, [&](size_t c) { return c == items.size(); })) continue;
      for (int b = 0; b < 256; ++b) count[b + 1] += count[b];
      for (const Item& it : items) scratch[count[(it.head >> shift) & 0xff]++] = it;
      items.swap(scratch);
    }
    for (size_t i = 0; i < items.size();) {
      size_t j = i + 1;
      while (j < items.size() && items[j].head == items[i].head) ++j;
      if (j - i > 1) std::sort(items.begin() + static_cast<std::ptrdiff_t>(i), items.begin() + static_cast<std::ptrdiff_t>(j), less);
      i = j;
    }
  }
  for (size_t i = 0; i < items.size(); ++i) indices[i] = items[i].index;
}

}  // namespace wasched
