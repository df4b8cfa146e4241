#pragma once
// "Did you mean" for missing files: names in a directory close to the requested one. Internal to
// access.cpp (header-only so that it needs no build-file entry).
#include "mcpread/common/ascii.hpp"

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace mcpread::readers::detail {

using common::ascii_lower;

// Optimal-string-alignment distance (edits and adjacent transpositions: "reamde" -> "readme" is
// 1), or limit + 1 once it is certain to exceed `limit`.
inline std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t limit) {
  const std::size_t n = a.size();
  const std::size_t m = b.size();
  if ((n > m ? n - m : m - n) > limit) return limit + 1;
  std::vector<std::size_t> prev2(m + 1), prev(m + 1), cur(m + 1);
  for (std::size_t j = 0; j <= m; ++j) prev[j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    cur[0] = i;
    std::size_t row_min = cur[0];
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
      row_min = std::min(row_min, cur[j]);
    }
    if (row_min > limit) return limit + 1;
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[m];
}

inline std::string_view stem_of(std::string_view name) {
  const auto dot = name.rfind('.');
  return dot == std::string_view::npos || dot == 0 ? name : name.substr(0, dot);
}

// Scans at most `scan_limit` entries of `dir`; returns up to `max` names, best first: the same
// name in another case, then small edit distances, the same stem with another extension, a
// shared prefix, a shared substring.
inline std::vector<std::string> similar_names(const std::filesystem::path& dir,
                                              std::string_view name, std::size_t max,
                                              std::size_t scan_limit = 10000) {
  constexpr std::size_t kLongName = 128;  // edit distance only below this: bounded work
  std::vector<std::string> result;
  if (max == 0 || name.empty()) return result;
  const std::string query = ascii_lower(name);
  const std::string_view qstem = stem_of(query);
  const std::size_t limit = std::max<std::size_t>(2, query.size() / 3);

  using Candidate = std::tuple<int, std::size_t, std::string>;  // tier, distance, name
  std::vector<Candidate> found;
  std::error_code ec;
  std::filesystem::directory_iterator it(dir, ec);
  std::size_t scanned = 0;
  for (; !ec && it != std::filesystem::directory_iterator() && scanned < scan_limit;
       it.increment(ec), ++scanned) {
    std::string cand = it->path().filename().string();
    if (cand == name) continue;
    const std::string lower = ascii_lower(cand);
    const std::string_view cstem = stem_of(lower);
    const std::size_t diff =
        lower.size() > query.size() ? lower.size() - query.size() : query.size() - lower.size();
    int tier = -1;
    std::size_t dist = diff;
    if (lower == query) {
      tier = 0;
    } else if (lower.size() < kLongName && query.size() < kLongName &&
               (dist = edit_distance(query, lower, limit)) <= limit && dist < query.size()) {
      tier = 1;
    } else if (cstem == qstem && cstem.size() >= 2) {
      tier = 2, dist = diff;
    } else if ((query.size() >= 2 && lower.starts_with(query)) ||
               (cstem.size() >= 3 && query.starts_with(cstem)) ||
               (qstem.size() >= 3 && lower.starts_with(qstem))) {
      tier = 3, dist = diff;
    } else if ((qstem.size() >= 3 && lower.find(qstem) != std::string::npos) ||
               (cstem.size() >= 3 && query.find(cstem) != std::string::npos)) {
      tier = 4, dist = diff;
    }
    if (tier >= 0) found.emplace_back(tier, dist, std::move(cand));
  }
  const std::size_t keep = std::min(max, found.size());
  std::partial_sort(found.begin(), found.begin() + static_cast<std::ptrdiff_t>(keep), found.end());
  for (std::size_t i = 0; i < keep; ++i) result.push_back(std::get<2>(found[i]));
  return result;
}

}  // namespace mcpread::readers::detail
