#include "mcpread/server/host_profile.hpp"

#include "mcpread/common/ascii.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace mcpread::server {
namespace {

using nlohmann::json;

constexpr const char* kResultSizeKey = "anthropic/maxResultSizeChars";
// Room an answer's closing notes take beyond its capped text (a text read's footer, a charset or
// replacement note, a document's headers and notes): well under 1,000 characters in practice.
constexpr std::size_t kNotesRoom = 2000;

// Reads one profile over `base` (the generic values, or the profile it replaces); the error names
// the field.
std::string apply(const json& j, HostProfile* p) {
  if (!j.is_object()) return "a profile must be an object";
  try {
    for (const auto& [key, value] : j.items()) {
      if (key == "name") p->name = value.get<std::string>();
      else if (key == "description") p->description = value.get<std::string>();
      else if (key == "measured_on") p->measured_on = value.get<std::vector<std::string>>();
      else if (key == "client_names") p->client_names = value.get<std::vector<std::string>>();
      else if (key == "tool_meta") {
        if (!value.is_object()) return "\"tool_meta\" must be an object";
        p->tool_meta = value;
      } else if (key == "text_max_chars") p->text_max_chars = value.get<std::size_t>();
      else if (key == "text_max_chars_with_images") p->text_max_chars_with_images = value.get<std::size_t>();
      else if (key == "image_max_bytes") p->image_max_bytes = value.get<std::size_t>();
      else if (key == "image_max_edge") p->image_max_edge = value.get<unsigned>();
      else if (key == "image_max_tiles") p->image_max_tiles = value.get<std::size_t>();
      else if (key == "result_max_image_tokens") p->result_max_image_tokens = value.get<std::size_t>();
      else if (key == "images_after_text") p->images_after_text = value.get<bool>();
      else if (key == "image_text") p->image_text = value.get<bool>();
      else if (key == "structured_content") p->structured_content = value.get<bool>();
      else if (key == "keeps_is_error") p->keeps_is_error = value.get<bool>();
      else if (key == "pdf") {
        const auto v = value.get<std::string>();
        if (v == "blob") p->pdf = HostProfile::Pdf::blob;
        else if (v == "text") p->pdf = HostProfile::Pdf::text;
        else if (v == "text_and_page_images") p->pdf = HostProfile::Pdf::text_and_page_images;
        else return "\"pdf\" must be blob, text or text_and_page_images, not \"" + v + "\"";
      } else if (key == "audio") {
        const auto v = value.get<std::string>();
        if (v == "block") p->audio = HostProfile::Audio::block;
        else if (v == "describe") p->audio = HostProfile::Audio::describe;
        else return "\"audio\" must be block or describe, not \"" + v + "\"";
      } else if (key != "comment") {
        return "unknown field \"" + key + "\"";
      }
    }
  } catch (const json::exception& e) {
    return std::string("a field has the wrong type (") + e.what() + ")";
  }
  if (p->image_max_edge != 0 && p->image_max_edge < 16) return "\"image_max_edge\" must be at least 16";
  // A host that passes on results up to a declared size (Claude Code previews a longer one and
  // the model loses the text) needs the text capped below it, with room for the closing notes,
  // whatever --max-output-bytes allows.
  if (const auto declared = p->tool_meta.find(kResultSizeKey); declared != p->tool_meta.end()) {
    if (!declared->is_number_unsigned()) return "\"tool_meta\"'s \"" + std::string(kResultSizeKey) + "\" must be a count of characters";
    const auto size = declared->get<std::size_t>();
    if (p->text_max_chars == 0 || p->text_max_chars + kNotesRoom > size)
      return "\"text_max_chars\" must be set, at most " + std::to_string(size > kNotesRoom ? size - kNotesRoom : 0) +
             " (the tool_meta's " + std::string(kResultSizeKey) + " less " + std::to_string(kNotesRoom) +
             " characters for an answer's notes), so that no answer is longer than the host passes on";
  }
  return {};
}

// Adds the profiles of `text` to `out`, each replacing one of the same name; `where` names the
// source in errors.
std::string merge(const std::string& text, const std::string& where, std::vector<HostProfile>* out) {
  const json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded()) return where + " is not valid JSON";
  if (!doc.is_object() || !doc.contains("profiles") || !doc["profiles"].is_array())
    return where + " needs a \"profiles\" array";
  for (const auto& j : doc["profiles"]) {
    const std::string name = j.is_object() && j.contains("name") && j["name"].is_string() ? j["name"].get<std::string>() : "";
    if (name.empty()) return where + ", profile without a name: a profile needs a \"name\"";
    auto existing = std::find_if(out->begin(), out->end(), [&](const auto& p) { return p.name == name; });
    // A new profile starts from the generic one (the first), a known one from itself.
    HostProfile p = existing != out->end() ? *existing : out->empty() ? HostProfile{} : out->front();
    if (existing == out->end()) p.client_names.clear(), p.measured_on.clear(), p.description.clear();
    if (auto problem = apply(j, &p); !problem.empty())
      return where + ", profile \"" + name + "\": " + problem;
    if (existing != out->end())
      *existing = std::move(p);
    else
      out->push_back(std::move(p));
  }
  return {};
}

}  // namespace

std::variant<HostProfiles, std::string> HostProfiles::load(const std::string& user_file) {
  HostProfiles profiles;
  if (auto problem = merge(builtin_host_profiles_json, "the built-in host profiles", &profiles.profiles_);
      !problem.empty())
    return problem;
  if (profiles.profiles_.empty() || profiles.profiles_.front().name != "generic")
    return std::string("the built-in host profiles must start with \"generic\"");
  if (!user_file.empty()) {
    std::ifstream in(user_file, std::ios::binary);
    if (!in) return "cannot read the host profiles file " + user_file;
    std::ostringstream text;
    text << in.rdbuf();
    if (auto problem = merge(text.str(), user_file, &profiles.profiles_); !problem.empty()) return problem;
  }
  return profiles;
}

HostProfiles HostProfiles::builtin() {
  auto loaded = load("");
  if (auto* problem = std::get_if<std::string>(&loaded)) throw std::logic_error(*problem);
  return std::get<HostProfiles>(std::move(loaded));
}

const HostProfile* HostProfiles::find(const std::string& name) const {
  for (const auto& p : profiles_)
    if (p.name == name) return &p;
  return nullptr;
}

bool HostProfiles::force(const std::string& name) {
  if (name.empty() || name == "auto") {
    forced_.clear();
    return true;
  }
  if (find(name) == nullptr) return false;
  forced_ = name;
  return true;
}

const HostProfile& HostProfiles::select(const protocol::ClientInfo& client) const {
  if (!forced_.empty()) return *find(forced_);
  const std::string name = common::ascii_lower(client.name);
  for (const auto& p : profiles_)
    for (const auto& n : p.client_names)
      if (common::ascii_lower(n) == name) return p;
  return profiles_.front();
}

}  // namespace mcpread::server
