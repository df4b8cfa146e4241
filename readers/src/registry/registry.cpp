#include "mcpread/readers/registry.hpp"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>

namespace mcpread::readers {
namespace {

// What add()'s comment asks of a reader and its claims: lower case, no dot.
[[maybe_unused]] bool well_formed(const Reader& reader) {
  const auto plain = [](std::string_view e) {
    return !e.empty() && std::none_of(e.begin(), e.end(), [](char c) { return c == '.' || (c >= 'A' && c <= 'Z'); });
  };
  return reader.read != nullptr && !reader.article.empty() && !reader.noun.empty() &&
         std::all_of(reader.extensions.begin(), reader.extensions.end(),
                     [&](const ExtensionClaim& c) { return plain(c.extension) && !c.mime.empty(); }) &&
         std::all_of(reader.options.begin(), reader.options.end(), [](const ReaderOption& o) {
           return o.name.starts_with("--") && o.get != nullptr && o.set != nullptr && o.min <= o.max;
         });
}

}  // namespace

bool ReaderRegistry::add(Reader reader) {
  assert(well_formed(reader));
  if (find(reader.kind) != nullptr || reader.kind == FileKind::binary) return false;
  for (const auto& claim : reader.extensions)
    if (for_extension(claim.extension) != nullptr) return false;
  readers_.push_back(std::move(reader));
  return true;
}

const Reader* ReaderRegistry::find(FileKind kind) const { return find(kind.name()); }

const Reader* ReaderRegistry::find(std::string_view kind_name) const {
  const auto it = std::find_if(readers_.begin(), readers_.end(),
                               [&](const Reader& r) { return r.kind.name() == kind_name; });
  return it == readers_.end() ? nullptr : &*it;
}

const Reader* ReaderRegistry::for_extension(std::string_view extension,
                                            const ExtensionClaim** claim) const {
  for (const auto& r : readers_)
    for (const auto& c : r.extensions)
      if (c.extension == extension) {
        if (claim != nullptr) *claim = &c;
        return &r;
      }
  return nullptr;
}

const Reader* ReaderRegistry::sniff(const SniffInput& input, Sniffed* sniffed) const {
  const Reader* guessed = nullptr;
  for (const auto& r : readers_) {
    if (r.sniff == nullptr) continue;
    const std::optional<Sniffed> s = r.sniff(input);
    if (!s) continue;
    assert(!s->mime.empty());  // a sniffer that recognises a file names its MIME type
    if (s->anchored) {
      *sniffed = *s;
      return &r;
    }
    if (guessed == nullptr) {
      guessed = &r;
      *sniffed = *s;
    }
  }
  return guessed;
}

const ReaderRegistry& reader_registry() {
  static const ReaderRegistry registry = [] {
    ReaderRegistry r;
    if (!register_readers(r)) {
      std::fputs("mcp-read: a reader's kind or extension is registered twice (register_readers.cpp)\n", stderr);
      std::abort();
    }
    return r;
  }();
  return registry;
}

std::string reader_nouns(bool resources_only) {
  std::string out;
  for (const Reader& r : reader_registry().readers())
    if (!resources_only || r.resource != nullptr) out += (out.empty() ? "" : ", ") + std::string(r.noun);
  return out;
}

std::string_view article(FileKind kind) {
  const Reader* r = reader_registry().find(kind);
  return r != nullptr ? r->article : "a binary file";
}

bool parse_file_kind(std::string_view name, FileKind* kind) {
  const Reader* r = reader_registry().find(name);
  if (r == nullptr || !r->selectable) return false;  // "auto", "binary" and anything unknown
  *kind = r->kind;
  return true;
}

}  // namespace mcpread::readers
