// Which Tesseract languages an OCR uses: those asked for that are installed, and a note for
// those that are not. Names are checked before they reach Tesseract, which builds file paths
// from them.
#include "mcpread/readers/ocr.hpp"
#include "tess_api.hpp"

#include <algorithm>

namespace mcpread::readers {
namespace {

bool plain_name(std::string_view name) {
  return !name.empty() && name.size() <= 40 &&
         std::all_of(name.begin(), name.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                  c == '-';
         });
}

std::vector<std::string> split(std::string_view list) {
  std::vector<std::string> out;
  std::string one;
  const auto flush = [&] {
    if (!one.empty() && std::find(out.begin(), out.end(), one) == out.end()) out.push_back(one);
    one.clear();
  };
  for (const char c : list) {
    if (c == '+' || c == ',' || c == ' ' || c == ';') flush();
    else one += c;
  }
  flush();
  return out;
}

std::string joined(const std::vector<std::string>& names, const char* separator) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : separator) + n;
  return s;
}

}  // namespace

std::string OcrLanguages::spec() const { return joined(used, "+"); }
std::string OcrLanguages::list() const { return joined(used, ", "); }

OcrLanguages choose_ocr_languages(std::string_view requested, std::string_view configured) {
  OcrLanguages out;
  const std::vector<std::string> installed = ocr::installed_languages();
  const std::vector<std::string> asked = split(requested.empty() ? configured : requested);
  if (asked.empty()) {
    out.used = installed;
    if (installed.empty())
      out.note = "No OCR language data is installed in " + ocr::tessdata_directory() +
#if defined(_WIN32)
                 " (the Windows bundle ships eng.traineddata there: reinstall mcp-read).";
#else
                 " (Debian package tesseract-ocr-eng, or another tesseract-ocr-* language).";
#endif
    return out;
  }
  std::vector<std::string> missing, bad;
  for (const auto& name : asked) {
    if (!plain_name(name) || name == "osd" || name == "equ") bad.push_back(name);
    else if (std::find(installed.begin(), installed.end(), name) != installed.end()) out.used.push_back(name);
    else missing.push_back(name);
  }
  const std::string have = installed.empty() ? "none" : joined(installed, ", ");
  if (!bad.empty()) out.note += "\"" + joined(bad, "\", \"") + "\" is not a Tesseract language name (such as eng, deu, chi_sim). ";
  if (!missing.empty()) {
#if defined(_WIN32)
    // No packages there: a language is its <name>.traineddata file, put in the bundle's folder.
    out.note += "No OCR language data for " + joined(missing, ", ") + " is installed (" +
                ocr::traineddata_hint(missing) + "). ";
#else
    std::string packages;
    for (const auto& m : missing) packages += (packages.empty() ? "" : ", ") + ocr::language_package(m);
    out.note += "No OCR language data for " + joined(missing, ", ") + " is installed (Debian package" +
                (missing.size() == 1 ? " " : "s ") + packages + "). ";
#endif
  }
  if (!out.note.empty()) {
    out.note += "Installed: " + have + ".";
  }
  return out;
}

}  // namespace mcpread::readers
