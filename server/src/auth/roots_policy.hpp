#pragma once
// Roots per identity (--oauth-roots FILE): a JSON policy whose rules map a token's claims to the
// directories its holder may read. Every rule that matches adds its roots (a union); a token that
// matches none may read nothing. The file:
//   {"groups_claim": "groups",            (optional: the claim holding the groups, an array)
//    "rules": [{"sub": "alice", "roots": ["/srv/home/alice"]},
//              {"group": "staff", "roots": ["/srv/shared"]},
//              {"email_domain": "example.com", "roots": ["/srv/home/{sub}"]},
//              {"any": true, "roots": ["/srv/public"]}]}
// Each rule has one of sub, group, email_domain (from `email`, unless `email_verified` is false)
// or any. Roots are absolute paths; {sub} and {email_local} (the part of `email` before the @)
// are replaced by the token's values, which must be one safe path component each.
#include "mcpread/readers/access.hpp"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mcpread::server::auth {

class RootsPolicy {
 public:
  struct Rule {
    enum class Match { sub, group, email_domain, any };
    Match match = Match::any;
    std::string value;               // the sub, group or domain (lowercased) matched
    std::vector<std::string> roots;  // absolute, possibly with {sub} or {email_local}
  };

  // The policy in `text`, or why it is unusable ("rule 2: ..."). Fixed roots that lie outside
  // `server_roots` are dropped, each with a sentence added to `warnings`.
  static std::variant<RootsPolicy, std::string> parse(std::string_view text, const readers::Roots& server_roots,
                                                      std::vector<std::string>& warnings);
  // The same, from a file ("FILE: ..." when it cannot be read).
  static std::variant<RootsPolicy, std::string> load(const std::string& path, const readers::Roots& server_roots,
                                                     std::vector<std::string>& warnings);

  // The directories the token with these verified claims may read: the roots of every matching
  // rule, templates filled in (not yet checked against the server's roots: see roots_for).
  // A template whose value is not one safe path component makes its rule not apply, with a
  // sentence added to `warnings`.
  [[nodiscard]] std::vector<std::string> directories_for(const nlohmann::json& claims,
                                                         std::vector<std::string>& warnings) const;
  // Those directories within `server_roots` (each resolved: symbolic links followed; those that
  // do not exist or lie outside dropped). Empty when no rule matches.
  [[nodiscard]] readers::Roots roots_for(const nlohmann::json& claims, const readers::Roots& server_roots,
                                         std::vector<std::string>& warnings) const;

  [[nodiscard]] const std::vector<Rule>& rules() const { return rules_; }
  [[nodiscard]] const std::string& groups_claim() const { return groups_claim_; }

 private:
  std::vector<Rule> rules_;
  std::string groups_claim_ = "groups";
};

// Whether `value` may stand for one path component in a template: not empty, not "." or "..",
// no '/', '\\', NUL or other control character.
bool safe_path_component(std::string_view value);

}  // namespace mcpread::server::auth
