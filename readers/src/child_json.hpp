#pragma once
// Numbers read from a child process's JSON answer (child_process.hpp), checked: nlohmann's
// get<int>() of 1e300 is undefined and get<std::size_t>() of -1 wraps to 2^64-1, so a child that
// went wrong could hand the server a nesting level or an index nothing checks again. whole()
// takes a whole number within bounds or throws a json exception, as nlohmann's get() does for a
// value of the wrong type, so the caller's catch refuses the answer as malformed. Internal to the
// readers library.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <utility>

namespace mcpread::readers::child_json {

// What whole() throws: a json exception, caught where a malformed answer is.
class NotInRange : public nlohmann::json::exception {
 public:
  NotInRange() : nlohmann::json::exception(0, "not a whole number in range in a child's answer") {}
};

// `value` as a T when it is a whole number in [lo, hi]; else (a float, a number out of range, a
// string, a boolean...) throws NotInRange.
template <class T>
T whole(const nlohmann::json& value, T lo = std::numeric_limits<T>::min(), T hi = std::numeric_limits<T>::max()) {
  const auto within = [&](auto v) { return std::cmp_greater_equal(v, lo) && std::cmp_less_equal(v, hi); };
  if (value.is_number_unsigned()) {
    if (const auto v = value.get<std::uint64_t>(); within(v)) return static_cast<T>(v);
  } else if (value.is_number_integer()) {
    if (const auto v = value.get<std::int64_t>(); within(v)) return static_cast<T>(v);
  }
  throw NotInRange();
}

}  // namespace mcpread::readers::child_json
