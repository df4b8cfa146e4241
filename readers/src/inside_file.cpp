#include "inside_file.hpp"

#include "registry/classified_file.hpp"

namespace mcpread::readers {

std::pair<std::string, std::string> split_first(const std::string& rest) {
  const std::size_t slash = rest.find('/');
  if (slash == std::string::npos) return {rest, {}};
  return {rest.substr(0, slash), rest.substr(slash + 1)};
}

OuterFile open_outer_file(const Roots& roots, const PathInsideFile& inside, FileKind kind,
                          const ReadRequest& request) {
  AccessResult access = open_in_roots(roots, inside.file);
  if (auto* denied = std::get_if<AccessError>(&access)) return ReadOutcome::error(denied->message);
  if (!std::holds_alternative<OpenedFile>(access)) return std::monostate{};
  std::string error;
  const auto classified = classify_file(std::get<OpenedFile>(access), &error);
  if (!classified || classified->classification.kind != kind) return std::monostate{};
  if (request.nowait != 0) return ReadOutcome::waits();  // what is inside takes a while
  return std::move(std::get<OpenedFile>(access));
}

}  // namespace mcpread::readers
