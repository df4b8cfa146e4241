#include "hwp/hwp_reader.hpp"

#include "human_size.hpp"
#include "hwp/hwp_body.hpp"
#include "mcpread/readers/utf8.hpp"
#include "ole2/ole2_file.hpp"
#include "whole_file.hpp"

#include <libdeflate.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <memory>

namespace mcpread::readers::hwp {

namespace {

// FileHeader's flags (offset 36).
constexpr std::uint32_t kCompressed = 1u << 0;
constexpr std::uint32_t kPassword = 1u << 1;
constexpr std::uint32_t kDistribution = 1u << 2;  // its text is in encrypted ViewText streams

std::uint32_t u32(std::string_view b, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + i])) << (8 * i);
  return v;
}

// A section's raw deflate stream (no zlib header) inflated, its size unknown until done: the
// buffer grows until the stream fits or `cap` is passed.
std::optional<std::string> inflate_section(std::string_view deflated, std::uint64_t cap, std::string* why) {
  struct Free {
    void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
  };
  const std::unique_ptr<libdeflate_decompressor, Free> decompressor(libdeflate_alloc_decompressor());
  if (!decompressor) {
    *why = "no memory to inflate it";
    return std::nullopt;
  }
  std::uint64_t room = std::min<std::uint64_t>(std::max<std::uint64_t>(deflated.size() * 4, 64 * 1024), cap);
  for (;;) {
    std::string out(static_cast<std::size_t>(room), '\0');
    std::size_t produced = 0;
    const auto result = libdeflate_deflate_decompress(decompressor.get(), deflated.data(), deflated.size(),
                                                      out.data(), out.size(), &produced);
    if (result == LIBDEFLATE_SUCCESS) {
      out.resize(produced);
      return out;
    }
    if (result != LIBDEFLATE_INSUFFICIENT_SPACE) {
      *why = "its compressed data is damaged";
      return std::nullopt;
    }
    if (room >= cap) {
      *why = "it unpacks to more than " + human_size(cap);
      return std::nullopt;
    }
    room = std::min(room * 4, cap);
  }
}

// The BodyText storage's sections by number: Section0, Section1, ...
std::map<std::uint32_t, std::string> section_names(const ole2::CompoundFile& file) {
  std::map<std::uint32_t, std::string> sections;
  for (const std::string& name : file.names(ole2::Path{"BodyText"})) {
    const std::string_view digits = std::string_view(name).substr(std::min<std::size_t>(7, name.size()));
    std::uint32_t number = 0;
    if (name.rfind("Section", 0) != 0 || digits.empty()) continue;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (ec == std::errc() && end == digits.data() + digits.size()) sections.emplace(number, name);
  }
  return sections;
}

}  // namespace

ReadOutcome read_hwp_bytes(std::string_view bytes, std::string_view name, const office::OfficeOptions& options,
                           const CancelToken& cancel) {
  const std::string path = utf8::sanitized(name);
  nlohmann::json meta = {{"path", path}, {"size", bytes.size()}};
  auto refuse = [&](const std::string& why) {
    return ReadOutcome::error("Cannot read " + path + " as a Hangul (HWP) document: " + why + ".", std::move(meta));
  };
  std::string error;
  const std::unique_ptr<ole2::CompoundFile> file = ole2::CompoundFile::open(bytes, &error);
  if (!file) return refuse(error);
  const std::optional<std::string> header = file->stream("FileHeader", 64 * 1024, &error);
  if (!header || header->size() < 40 || header->compare(0, kSignature.size(), kSignature) != 0)
    return refuse(!error.empty() ? error
                                 : "it has no FileHeader stream starting \"HWP Document File\", so it is not an HWP 5 "
                                   "document");
  const std::uint32_t version = u32(*header, 32), flags = u32(*header, 36);
  meta["format"] = "HWP " + std::to_string(version >> 24) + "." + std::to_string((version >> 16) & 0xFF) + "." +
                   std::to_string((version >> 8) & 0xFF) + "." + std::to_string(version & 0xFF);
  if ((flags & kPassword) != 0)
    return refuse("it is protected by a password, which this reader cannot open; save a copy without the password "
                  "in Hangul and read that");
  if ((flags & kDistribution) != 0)
    return refuse("it is a distribution document, whose text is encrypted (its ViewText streams), and this reader "
                  "does not decrypt it");
  const auto sections = section_names(*file);
  if (sections.empty()) return refuse("it has no BodyText sections");
  if (sections.size() > kMaxSections)
    return refuse("it claims " + std::to_string(sections.size()) + " sections, over the limit of " +
                  std::to_string(kMaxSections));
  Body body;
  const office::Document& doc = body.doc;
  std::uint64_t inflated = 0;
  std::string damaged;
  for (const auto& [number, section] : sections) {
    if (cancel.cancelled()) return ReadOutcome::stopped();
    if (inflated >= kMaxBodyBytes) {
      body.cut = true;
      break;
    }
    std::optional<std::string> records = file->stream(ole2::Path{"BodyText", section}, kMaxFileBytes, &error);
    if (records && (flags & kCompressed) != 0)
      records = inflate_section(*records, std::min(kMaxSectionBytes, kMaxBodyBytes - inflated), &error);
    if (!records) {
      damaged = section + " cannot be read: " + (error.empty() ? "it is missing" : error);
      break;
    }
    inflated += records->size();
    if (!read_section(*records, &body, &error)) {
      damaged = section + " is damaged: " + error;
      break;
    }
    if (body.cut) break;
  }
  if (doc.blocks.empty() && !damaged.empty()) return refuse(damaged);
  meta["sections"] = sections.size();
  if (!damaged.empty()) meta["damaged"] = damaged;
  if (body.cut) meta["text_cut"] = true;
  const office::PartReader no_parts = [](const std::string&, std::string* why, std::uint64_t) {
    *why = "pictures of HWP documents are not read";
    return std::optional<std::string>();
  };
  ReadOutcome outcome =
      office::render_document(doc, no_parts, "HWP document", path, options, cancel, std::move(meta));
  std::string note;
  if (!damaged.empty()) note += "\n[The document is damaged: " + damaged + "; the text before it is shown.]";
  if (body.cut)
    note += "\n[The document's text was cut at " + std::to_string(kMaxBlocks) + " paragraphs or " +
            human_size(kMaxBodyBytes) + " of records: the rest is not read.]";
  if (!outcome.is_error && !note.empty() && !outcome.blocks.empty())
    if (auto* last = std::get_if<TextBlock>(&outcome.blocks.back())) last->text += note;
  return outcome;
}

ReadOutcome read_hwp_file(const OpenedFile& file, const office::OfficeOptions& options, const CancelToken& cancel) {
  auto bytes = read_whole_file(file, kMaxFileBytes, "HWP documents");
  if (auto* refused = std::get_if<ReadOutcome>(&bytes)) return std::move(*refused);
  return read_hwp_bytes(std::get<std::string>(bytes), utf8::sanitized(file.path.string()), options, cancel);
}

}  // namespace mcpread::readers::hwp
