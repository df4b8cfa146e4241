#include "result_shaper.hpp"

#include "mcpread/readers/base64.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace mcpread::server {

using nlohmann::json;
namespace readers = mcpread::readers;

namespace {

// Claude Code's own estimate of an image, in tokens, which decides when it cuts a result.
constexpr std::size_t image_tokens = 1600;

template <class T>
bool holds(const readers::Block& b) {
  return std::holds_alternative<T>(b);
}

std::size_t text_chars(const std::vector<readers::Block>& blocks) {
  std::size_t n = 0;
  for (const auto& b : blocks)
    if (const auto* t = std::get_if<readers::TextBlock>(&b)) n += t->text.size();
  return n;
}

// Adds a sentence to the text block before position `at` (or a block of its own there).
void say_before(std::vector<readers::Block>& blocks, std::size_t at, const std::string& sentence) {
  if (at > 0) {
    if (auto* t = std::get_if<readers::TextBlock>(&blocks[at - 1])) {
      t->text += (t->text.empty() || t->text.back() == '\n' ? "" : t->text.back() == '.' ? " " : "\n") + sentence;
      return;
    }
  }
  blocks.insert(blocks.begin() + static_cast<std::ptrdiff_t>(at), readers::TextBlock{sentence});
}

// Audio: sent as a block where the host and version carry one, else described in text.
void shape_audio(readers::ReadOutcome& outcome, const HostProfile& profile,
                 const protocol::VersionFeatures& features) {
  const bool has_audio = std::any_of(outcome.blocks.begin(), outcome.blocks.end(), holds<readers::AudioBlock>);
  if (has_audio && !features.audio_content) {
    // 2024-11-05 has no audio content type: say so rather than send what the client cannot read.
    const std::string path = outcome.meta.value("path", std::string("The file"));
    readers::ReadOutcome refused = readers::ReadOutcome::error(
        path + " is audio (" + outcome.meta.value("mime", std::string("audio")) +
        "), but this session's protocol version (2024-11-05) cannot carry audio content. "
        "Audio needs a client that speaks MCP 2025-03-26 or later.");
    refused.meta = std::move(outcome.meta);
    outcome = std::move(refused);
    return;
  }
  for (std::size_t i = 0; i < outcome.blocks.size(); ++i) {
    if (!holds<readers::AudioBlock>(outcome.blocks[i])) continue;
    if (profile.audio == HostProfile::Audio::block) {
      say_before(outcome.blocks, i, "Sent unchanged.");
      continue;
    }
    const std::string why = "this host (" + profile.name + ") does not pass audio content on to the model";
    outcome.blocks.erase(outcome.blocks.begin() + static_cast<std::ptrdiff_t>(i));
    say_before(outcome.blocks, i, "[The audio itself is not attached: " + why + ".]");
    outcome.meta["sent_bytes"] = 0;
    outcome.meta["audio_attached"] = false;
    --i;
  }
}

// Images past the host's per-answer budget are left out, from the end, each with a note.
void fit_image_budget(readers::ReadOutcome& outcome, const HostProfile& profile) {
  if (profile.result_max_image_tokens == 0) return;
  std::size_t images = static_cast<std::size_t>(
      std::count_if(outcome.blocks.begin(), outcome.blocks.end(), holds<readers::ImageBlock>));
  const std::size_t text_tokens = text_chars(outcome.blocks) / 4;
  std::size_t left_out = 0;
  for (std::size_t i = outcome.blocks.size(); i-- > 0 &&
                                              text_tokens + images * image_tokens > profile.result_max_image_tokens;) {
    if (!holds<readers::ImageBlock>(outcome.blocks[i])) continue;
    outcome.blocks[i] = readers::TextBlock{
        "[An image was left out here to keep this answer within what the host passes on whole; "
        "read a smaller part (offset and limit, or pages) to see it.]"};
    --images;
    ++left_out;
  }
  if (left_out > 0) outcome.meta["images_left_out"] = left_out;
}

// Hosts that move images after all the text: do it here, and say where each one went.
void images_last(readers::ReadOutcome& outcome) {
  std::vector<readers::Block> images;
  std::vector<readers::Block> rest;
  const std::size_t total = static_cast<std::size_t>(
      std::count_if(outcome.blocks.begin(), outcome.blocks.end(), holds<readers::ImageBlock>));
  if (total == 0) return;
  for (auto& b : outcome.blocks) {
    if (holds<readers::ImageBlock>(b)) {
      images.push_back(std::move(b));
      say_before(rest, rest.size(),
                 "[Image " + std::to_string(images.size()) + " of " + std::to_string(total) +
                     " belongs here; this host attaches images after all the text, and gives none to "
                     "some models.]");
    } else {
      rest.push_back(std::move(b));
    }
  }
  for (auto& i : images) rest.push_back(std::move(i));
  outcome.blocks = std::move(rest);
}

// Images, audio and PDFs go in as binary values: the protocol layer writes their base64 straight
// into the outgoing message (protocol/json_writer.hpp), so no base64 string is built here.
json to_content(std::vector<readers::Block>& blocks) {
  json content = json::array();
  for (auto& block : blocks) {
    if (auto* t = std::get_if<readers::TextBlock>(&block)) {
      content.push_back({{"type", "text"}, {"text", std::move(t->text)}});
    } else if (auto* i = std::get_if<readers::ImageBlock>(&block)) {
      content.push_back({{"type", "image"}, {"data", json::binary(std::move(i->data))}, {"mimeType", i->mime_type}});
    } else if (auto* a = std::get_if<readers::AudioBlock>(&block)) {
      content.push_back({{"type", "audio"}, {"data", json::binary(std::move(a->data))}, {"mimeType", a->mime_type}});
    } else if (auto* r = std::get_if<readers::BlobResourceBlock>(&block)) {
      content.push_back({{"type", "resource"},
                         {"resource", {{"uri", r->uri}, {"mimeType", r->mime_type}, {"blob", json::binary(std::move(r->data))}}}});
    }
  }
  return content;
}

}  // namespace

readers::ReadLimits limits_for(const readers::ReadLimits& base, const HostProfile& profile) {
  readers::ReadLimits l = base;
  if (profile.text_max_chars != 0)  // bytes >= characters: a byte cap keeps the character count
    l.text.max_output_bytes = std::min(l.text.max_output_bytes, profile.text_max_chars);
  if (profile.text_max_chars_with_images != 0)
    l.media_max_output_bytes = std::min(l.text.max_output_bytes, profile.text_max_chars_with_images);
  if (profile.image_max_edge != 0) l.image.max_edge = std::min(l.image.max_edge, profile.image_max_edge);
  if (profile.image_max_bytes != 0)
    l.image.max_base64_bytes = std::min(l.image.max_base64_bytes, readers::base64_size(profile.image_max_bytes));
  if (profile.image_max_tiles != 0) l.image.max_tiles = profile.image_max_tiles;
  switch (profile.pdf) {
    case HostProfile::Pdf::blob: l.pdf_default_mode = readers::PdfMode::text_and_blob; break;
    case HostProfile::Pdf::text: l.pdf_default_mode = readers::PdfMode::text; break;
    case HostProfile::Pdf::text_and_page_images:
      l.pdf_default_mode = readers::PdfMode::text_and_page_images;
      break;
  }
  if (profile.result_max_image_tokens != 0)
    l.pdf_max_page_images = std::min(l.pdf_max_page_images, profile.result_max_image_tokens / image_tokens);
  return l;
}

json shape_result(readers::ReadOutcome outcome, const HostProfile& profile,
                  const protocol::VersionFeatures& features, bool structured_content) {
  shape_audio(outcome, profile, features);
  fit_image_budget(outcome, profile);
  if (profile.images_after_text) images_last(outcome);
  if (outcome.is_error && !profile.keeps_is_error) {
    // The host drops isError: the text itself must read as an error.
    if (outcome.blocks.empty() || !holds<readers::TextBlock>(outcome.blocks.front()))
      outcome.blocks.insert(outcome.blocks.begin(), readers::TextBlock{});
    auto& first = std::get<readers::TextBlock>(outcome.blocks.front()).text;
    first.insert(0, first.empty() ? "Error." : "Error: ");
  }
  json result{{"content", to_content(outcome.blocks)}};
  if (outcome.is_error) result["isError"] = true;
  if (profile.name != "generic") outcome.meta["host_profile"] = profile.name;
  if (!outcome.meta.empty()) {
    if (structured_content && profile.structured_content && features.structured_content && !outcome.is_error)
      result["structuredContent"] = outcome.meta;
    result["_meta"] = std::move(outcome.meta);
  }
  return result;
}

}  // namespace mcpread::server
