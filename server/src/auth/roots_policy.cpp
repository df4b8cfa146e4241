#include "roots_policy.hpp"

#include "mcpread/common/ascii.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace mcpread::server::auth {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::string_view placeholders[] = {"{sub}", "{email_local}"};

// The placeholder at `at` in `root` ({sub} or {email_local}), or empty.
std::string_view placeholder_at(std::string_view root, std::size_t at) {
  for (const auto p : placeholders)
    if (root.substr(at, p.size()) == p) return p;
  return {};
}

// Why `root` is not a usable root pattern, or empty. Every brace must belong to a placeholder,
// so "/srv/{sub}}" and "/srv/{subx}" are refused rather than half filled.
std::string root_problem(const std::string& root) {
  if (root.empty() || root.front() != '/') return "\"" + root + "\" is not an absolute path";
  for (std::size_t at = 0; at < root.size(); ++at) {
    if (root[at] == '{') {
      const auto p = placeholder_at(root, at);
      if (p.empty()) return "\"" + root + "\" has an unknown placeholder (only {sub} and {email_local})";
      at += p.size() - 1;
    } else if (root[at] == '}') {
      return "\"" + root + "\" has a '}' without its '{'";
    }
  }
  return {};
}

// Whether a fixed root lies within the server's roots (resolved when it exists, as written when
// it does not exist yet).
bool within_server_roots(const std::string& root, const readers::Roots& server_roots) {
  std::error_code ec;
  const fs::path resolved = fs::weakly_canonical(fs::path(root), ec);
  return !ec && server_roots.contains(resolved);
}

std::variant<RootsPolicy::Rule, std::string> parse_rule(const json& item, const readers::Roots& server_roots,
                                                        std::vector<std::string>& warnings, const std::string& where) {
  if (!item.is_object()) return where + ": not a JSON object";
  RootsPolicy::Rule rule;
  int matchers = 0;
  for (const auto& [key, value] : item.items()) {
    if (key == "roots") continue;
    if (key == "any") {
      if (value != true) return where + ": \"any\" must be true";
      rule.match = RootsPolicy::Rule::Match::any;
    } else if (key == "sub" || key == "group" || key == "email_domain") {
      if (!value.is_string() || value.get_ref<const std::string&>().empty())
        return where + ": \"" + key + "\" must be a non-empty string";
      rule.value = value.get<std::string>();
      rule.match = key == "sub"     ? RootsPolicy::Rule::Match::sub
                   : key == "group" ? RootsPolicy::Rule::Match::group
                                    : RootsPolicy::Rule::Match::email_domain;
      if (key == "email_domain") rule.value = common::ascii_lower(rule.value);
    } else {
      return where + ": unknown key \"" + key + "\" (sub, group, email_domain, any, roots)";
    }
    ++matchers;
  }
  if (matchers != 1) return where + ": needs exactly one of \"sub\", \"group\", \"email_domain\" or \"any\"";
  const auto roots = item.find("roots");
  if (roots == item.end() || !roots->is_array()) return where + ": \"roots\" must be an array of paths";
  for (const auto& root : *roots) {
    if (!root.is_string()) return where + ": \"roots\" must be an array of paths";
    const std::string& path = root.get_ref<const std::string&>();
    if (auto problem = root_problem(path); !problem.empty()) return where + ": " + problem;
    if (path.find('{') == std::string::npos && !within_server_roots(path, server_roots)) {
      warnings.push_back(where + ": " + path + " lies outside the server's roots (" + server_roots.describe() +
                         "); dropped");
      continue;
    }
    rule.roots.push_back(path);
  }
  return rule;
}

bool has_group(const json& claims, const std::string& claim, const std::string& group) {
  const auto it = claims.find(claim);
  if (it == claims.end()) return false;
  if (it->is_string()) return *it == group;
  if (it->is_array())
    for (const auto& one : *it)
      if (one.is_string() && one == group) return true;
  return false;
}

// The verified email, or empty (none, not a string, or email_verified false).
std::string verified_email(const json& claims) {
  const auto email = claims.find("email");
  if (email == claims.end() || !email->is_string()) return {};
  const auto verified = claims.find("email_verified");
  if (verified != claims.end() && *verified == false) return {};
  return email->get<std::string>();
}

std::string claim_string(const json& claims, const char* name) {
  const auto it = claims.find(name);
  return it != claims.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

bool safe_path_component(std::string_view value) {
  if (value.empty() || value == "." || value == "..") return false;
  for (const char ch : value)
    if (ch == '/' || ch == '\\' || static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) return false;
  return true;
}

std::variant<RootsPolicy, std::string> RootsPolicy::parse(std::string_view text, const readers::Roots& server_roots,
                                                          std::vector<std::string>& warnings) {
  const json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded()) return std::string("not valid JSON");
  if (!doc.is_object()) return std::string("the policy must be a JSON object with \"rules\"");
  RootsPolicy policy;
  for (const auto& [key, value] : doc.items()) {
    if (key == "groups_claim") {
      if (!value.is_string() || value.get_ref<const std::string&>().empty())
        return std::string("\"groups_claim\" must be a non-empty string");
      policy.groups_claim_ = value.get<std::string>();
    } else if (key != "rules") {
      return "unknown key \"" + key + "\" (rules, groups_claim)";
    }
  }
  const auto rules = doc.find("rules");
  if (rules == doc.end() || !rules->is_array()) return std::string("\"rules\" must be an array");
  for (std::size_t i = 0; i < rules->size(); ++i) {
    auto rule = parse_rule((*rules)[i], server_roots, warnings, "rule " + std::to_string(i + 1));
    if (auto* problem = std::get_if<std::string>(&rule)) return std::move(*problem);
    policy.rules_.push_back(std::move(std::get<Rule>(rule)));
  }
  return policy;
}

std::variant<RootsPolicy, std::string> RootsPolicy::load(const std::string& path, const readers::Roots& server_roots,
                                                         std::vector<std::string>& warnings) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return path + ": cannot be read";
  std::ostringstream text;
  text << in.rdbuf();
  auto parsed = parse(text.str(), server_roots, warnings);
  if (auto* problem = std::get_if<std::string>(&parsed)) return path + ": " + *problem;
  return parsed;
}

std::vector<std::string> RootsPolicy::directories_for(const json& claims, std::vector<std::string>& warnings) const {
  std::vector<std::string> out;
  if (!claims.is_object()) return out;
  const std::string sub = claim_string(claims, "sub");
  const std::string email = verified_email(claims);
  const auto at = email.rfind('@');
  const std::string domain = at == std::string::npos ? std::string() : common::ascii_lower(email.substr(at + 1));
  const std::string local = at == std::string::npos ? std::string() : email.substr(0, at);
  for (const Rule& rule : rules_) {
    bool matches = false;
    switch (rule.match) {
      case Rule::Match::any: matches = true; break;
      case Rule::Match::sub: matches = !sub.empty() && sub == rule.value; break;
      case Rule::Match::group: matches = has_group(claims, groups_claim_, rule.value); break;
      case Rule::Match::email_domain: matches = !domain.empty() && domain == rule.value; break;
    }
    if (!matches) continue;
    std::vector<std::string> filled;
    bool applies = true;
    for (const std::string& root : rule.roots) {
      // One pass over the pattern: a value that itself looks like a placeholder is never filled.
      std::string path;
      for (std::size_t i = 0; i < root.size() && applies; ++i) {
        const auto p = root[i] == '{' ? placeholder_at(root, i) : std::string_view();
        if (p.empty()) {
          path += root[i];
          continue;
        }
        const std::string& value = p == "{sub}" ? sub : local;
        if (!safe_path_component(value)) {
          // The value itself is not quoted: it may hold control characters.
          warnings.push_back("the rule's root " + root + " does not apply to this token: its " + std::string(p) +
                             " is not one safe path component");
          applies = false;
        }
        path += value;
        i += p.size() - 1;
      }
      if (!applies) break;
      filled.push_back(std::move(path));
    }
    if (applies) out.insert(out.end(), filled.begin(), filled.end());
  }
  return out;
}

readers::Roots RootsPolicy::roots_for(const json& claims, const readers::Roots& server_roots,
                                      std::vector<std::string>& warnings) const {
  const auto dirs = directories_for(claims, warnings);
  // narrowed_by keeps the server's roots for an empty list: no rule matched means no roots.
  if (dirs.empty()) return readers::Roots();
  return server_roots.narrowed_by(dirs, false);
}

}  // namespace mcpread::server::auth
