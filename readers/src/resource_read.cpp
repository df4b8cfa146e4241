// resources/read: one file's contents, through the same confinement and readers as the read tool.
#include "mcpread/readers/resources.hpp"

#include "file_io.hpp"
#include "human_size.hpp"
#include "mcpread/readers/charset.hpp"
#include "mcpread/readers/classify.hpp"
#include "mcpread/readers/listing.hpp"
#include "mcpread/readers/registry.hpp"
#include "mcpread/readers/utf8.hpp"
#include "registry/classified_file.hpp"
#include "resource_contents.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <utility>

namespace mcpread::readers {

namespace {

constexpr std::size_t chunk_bytes = 64 * 1024;

ResourceReadResult refusal(ResourceStatus status, std::string message) {
  ResourceReadResult r;
  r.status = status;
  r.message = std::move(message);
  return r;
}

// The longest prefix of `text` within `room` bytes, ending after a line break when one lies in
// its second half, and never inside a UTF-8 sequence.
std::size_t cut_point(std::string_view text, std::size_t room) {
  if (text.size() <= room) return text.size();
  const std::size_t n = utf8::fit_bytes(text, room);
  if (n == 0) return 0;
  const auto nl = text.rfind('\n', n - 1);
  if (nl != std::string_view::npos && nl + 1 >= n / 2) return nl + 1;
  return n;
}

std::string first_text(const ReadOutcome& o) {
  for (const auto& b : o.blocks)
    if (const auto* t = std::get_if<TextBlock>(&b)) return t->text;
  return "The file could not be read.";
}

}  // namespace

ResourceReadResult resource_text(const ResourceCall& call) {
  const OpenedFile& file = call.file;
  const Classification& c = call.classification;
  const std::string_view head = call.head;
  const ReadLimits& limits = call.limits;
  const CancelToken& cancel = call.cancel;
  const std::string path = utf8::sanitized(file.path.string());
  const std::size_t cap = limits.text.max_output_bytes;
  const DetectedCharset cs =
      detect_charset(std::span(reinterpret_cast<const unsigned char*>(head.data()), head.size()));
  auto read_error = [&] {
    return refusal(ResourceStatus::failed,
                   "Cannot read " + path + ": " + utf8::sanitized(std::strerror(errno)) + ".");
  };
  std::string text;
  std::uint64_t pos = cs.bom_bytes;
  if (cs.name == "UTF-8") {
    // Sanitising never shortens: cap + 4 bytes are enough to fill the cap and see it overflow
    // (a sequence cut at the end of what was read lies past the cap).
    const std::size_t want = cap > SIZE_MAX - 4 ? SIZE_MAX : cap + 4;
    std::string raw;
    for (bool eof = false; !eof && raw.size() < want;) {
      if (cancel.cancelled()) return refusal(ResourceStatus::cancelled, "The read was cancelled.");
      const std::size_t ask = std::min(chunk_bytes, want - raw.size());
      const std::size_t had = raw.size();
      raw.resize(had + ask);
      const auto got = file_io::pread_full(file.fd.get(), raw.data() + had, ask, pos);
      if (!got) return read_error();
      raw.resize(had + *got);
      pos += *got;
      eof = *got < ask;
    }
    utf8::append_sanitized(raw, text);
  } else {
    Utf8Converter converter(cs.name);
    std::string chunk(chunk_bytes, '\0');
    for (bool eof = false; !eof && text.size() <= cap;) {
      if (cancel.cancelled()) return refusal(ResourceStatus::cancelled, "The read was cancelled.");
      const auto got = file_io::pread_full(file.fd.get(), chunk.data(), chunk.size(), pos);
      if (!got) return read_error();
      pos += *got;
      eof = *got < chunk.size();
      converter.convert(std::string_view(chunk.data(), *got), text, eof);
    }
  }
  ResourceContent content;
  content.mime = c.mime;
  content.meta = {{"charset", cs.name},
                  {"size", static_cast<std::uint64_t>(file.st.st_size)},
                  {"truncated", text.size() > cap}};
  if (text.size() > cap) {
    text.resize(cut_point(text, cap));
    // Where the read tool would continue: the first line not shown whole.
    content.meta["next_offset"] = static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  }
  content.text = std::move(text);
  ResourceReadResult r;
  r.contents.push_back(std::move(content));
  return r;
}

ResourceReadResult resource_from_outcome(ReadOutcome outcome, bool keep_text) {
  if (outcome.cancelled) return refusal(ResourceStatus::cancelled, "The read was cancelled.");
  if (outcome.is_error) return refusal(ResourceStatus::failed, first_text(outcome));
  nlohmann::json meta = std::move(outcome.meta);
  meta.erase("path");  // the URI says it
  ResourceReadResult r;
  std::optional<ResourceContent> text;
  for (auto& block : outcome.blocks) {
    ResourceContent c;
    c.blob = true;
    if (auto* i = std::get_if<ImageBlock>(&block)) {
      c.mime = std::move(i->mime_type);
      c.data = std::move(i->data);
    } else if (auto* a = std::get_if<AudioBlock>(&block)) {
      c.mime = std::move(a->mime_type);
      c.data = std::move(a->data);
    } else if (auto* b = std::get_if<BlobResourceBlock>(&block)) {
      c.mime = std::move(b->mime_type);
      c.data = std::move(b->data);
    } else if (auto* t = std::get_if<TextBlock>(&block); t != nullptr && keep_text && !text) {
      text = ResourceContent{"text/plain", false, std::move(t->text), {}, nlohmann::json::object()};
      continue;
    } else {
      continue;  // a reader's description of what it sent: the _meta says the same
    }
    c.meta = meta;
    r.contents.push_back(std::move(c));
  }
  if (text) {
    text->meta = r.contents.empty() ? meta : nlohmann::json{{"extracted_text", true}};
    r.contents.push_back(std::move(*text));
  }
  return r;
}


ResourceReadResult read_resource(const Roots& roots, std::string_view path, const ReadLimits& limits,
                                 const CancelToken& cancel, const Wording& wording) {
  AccessResult access = open_in_roots(roots, path);
  if (auto* denied = std::get_if<AccessError>(&access)) {
    switch (denied->reason) {
      case AccessError::Reason::not_found:
      case AccessError::Reason::outside_roots:
        return refusal(ResourceStatus::not_found, std::move(denied->message));
      case AccessError::Reason::special_file:
        return refusal(ResourceStatus::unsupported, std::move(denied->message));
      case AccessError::Reason::other:
        break;
    }
    return refusal(ResourceStatus::failed, std::move(denied->message));
  }
  if (auto* dir = std::get_if<DirectoryTarget>(&access)) {
    ReadOutcome listing = list_directory(dir->path, limits.max_directory_entries, 1, SIZE_MAX, wording);
    if (listing.is_error) return refusal(ResourceStatus::failed, first_text(listing));
    listing.meta.erase("path");
    ResourceReadResult r;
    r.contents.push_back(ResourceContent{"text/plain", false, first_text(listing), {}, std::move(listing.meta)});
    return r;
  }
  const auto& file = std::get<OpenedFile>(access);
  if (cancel.cancelled()) return refusal(ResourceStatus::cancelled, "The read was cancelled.");
  const std::string shown = utf8::sanitized(file.path.string());
  std::string error;
  const auto classified = classify_file(file, &error);
  if (!classified) return refusal(ResourceStatus::failed, "Cannot read " + shown + ": " + error + ".");
  const Classification& c = classified->classification;
  const Reader* reader = reader_registry().find(c.kind);
  if (reader != nullptr && reader->resource != nullptr)
    return reader->resource(ResourceCall{file, c, classified->head, limits, cancel, wording});
  const auto size = static_cast<std::uint64_t>(file.st.st_size);
  const std::string what = c.description.empty() ? c.mime : c.description + " (" + c.mime + ")";
  return refusal(ResourceStatus::unsupported,
                 shown + " is a binary file (" + utf8::sanitized(what) + ", " + human_size(size) +
                     "). Resources serve " + reader_nouns(true) +
                     " and directories; other binary files cannot be read.");
}

}  // namespace mcpread::readers
