// read_doc: parse_doc in a child process (child_process.hpp). libwv crashes (SIGSEGV) on some
// damaged files, may loop on others, and keeps its state in globals. The child sends the
// Document back as JSON.
#include "doc/doc_document.hpp"

#if !defined(_WIN32)
#include "child_json.hpp"
#include "child_process.hpp"
#include "doc/wv_api.hpp"

#include <nlohmann/json.hpp>

#include <chrono>

namespace mcpread::readers::doc {

namespace {

constexpr std::size_t kMaxMessageBytes = 4 * kMaxTextBytes;  // the JSON of the most text kept

nlohmann::json to_json(const DocDocument& d) {
  nlohmann::json blocks = nlohmann::json::array();
  for (const office::DocBlock& b : d.doc.blocks)
    blocks.push_back({{"type", static_cast<int>(b.type)}, {"level", b.level}, {"ordered", b.ordered},
                      {"number", b.number}, {"list", b.list}, {"text", b.text}, {"rows", b.rows},
                      {"notes", b.notes}});
  nlohmann::json notes = nlohmann::json::array();
  for (const office::Note& n : d.doc.notes) notes.push_back({n.label, n.text});
  return {{"blocks", std::move(blocks)}, {"notes", std::move(notes)}, {"comments", d.doc.comments},
          {"images", d.doc.images},       {"tables", d.doc.tables},   {"pictures", d.pictures},
          {"text_cut", d.text_cut},       {"version", d.version}};
}

// Throws a json exception for what is not a document's JSON: a missing key, a wrong type, a
// number out of range (child_json::whole), a note a block names that is not there.
void from_json(const nlohmann::json& j, DocDocument* d) {
  using child_json::whole;
  for (const auto& n : j.at("notes")) d->doc.notes.push_back({n.at(0).get<std::string>(), n.at(1).get<std::string>()});
  for (const auto& b : j.at("blocks")) {
    office::DocBlock block;
    constexpr int kLastType = static_cast<int>(office::DocBlock::Type::table);
    block.type = static_cast<office::DocBlock::Type>(whole(b.at("type"), 0, kLastType));
    block.level = whole(b.at("level"), 0);
    block.ordered = b.at("ordered").get<bool>();
    block.number = whole<std::size_t>(b.at("number"));
    block.list = b.at("list").get<std::string>();
    block.text = b.at("text").get<std::string>();
    block.rows = b.at("rows").get<std::vector<std::vector<std::string>>>();
    for (const auto& n : b.at("notes")) {
      if (d->doc.notes.empty()) throw child_json::NotInRange();
      block.notes.push_back(whole<std::size_t>(n, 0, d->doc.notes.size() - 1));
    }
    d->doc.blocks.push_back(std::move(block));
  }
  d->doc.comments = whole<std::size_t>(j.at("comments"));
  d->doc.images = whole<std::size_t>(j.at("images"));
  d->doc.tables = whole<std::size_t>(j.at("tables"));
  d->pictures = whole<std::size_t>(j.at("pictures"));
  d->text_cut = j.at("text_cut").get<bool>();
  d->version = j.at("version").get<std::string>();
}

}  // namespace

bool read_doc(std::string_view bytes, DocDocument* out, std::string* error, const CancelToken& cancel) {
  if (!bytes.starts_with("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1")) return parse_doc(bytes, out, error, cancel);
  if (wv_api(error) == nullptr) return false;  // loaded here, once, so that every child has it
  child_process::Limits limits;
  limits.cpu_seconds = kParseSeconds;
  limits.wall = std::chrono::seconds(kParseSeconds);
  limits.extra_memory = kParseMemoryBytes;
  limits.max_message = kMaxMessageBytes;
  const child_process::Outcome child = child_process::run(
      [bytes] {
        nlohmann::json answer;
        DocDocument parsed;
        std::string why;
        if (parse_doc(bytes, &parsed, &why, CancelToken{})) answer = {{"document", to_json(parsed)}};
        else answer = {{"error", why}};
        return answer.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      },
      limits, cancel);
  constexpr std::string_view kCrashAdvice =
      ": the document is damaged or uses what libwv cannot read; open it in Word or LibreOffice and save it as DOCX";
  if (child.ending != child_process::Ending::sent)
    return *error = child.refusal("libwv", "parsing it", limits, kCrashAdvice), false;
  const std::string malformed = "libwv's parse ended with a malformed answer" + std::string(kCrashAdvice);
  const nlohmann::json parsed = nlohmann::json::parse(child.message, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) return *error = malformed, false;
  if (const auto said = parsed.find("error"); said != parsed.end())
    return *error = said->is_string() ? said->get<std::string>() : malformed, false;
  try {
    from_json(parsed.at("document"), out);
  } catch (const nlohmann::json::exception&) {
    return *error = malformed, false;
  }
  return true;
}

}  // namespace mcpread::readers::doc
#endif
