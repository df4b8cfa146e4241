#pragma once
// Scripts Tesseract's orientation model (osd) names, and the languages that read them: a page in
// a script none of the languages used reads gets a note saying which data to install.
#include <string>
#include <vector>

namespace mcpread::readers::ocr {

// Empty when one of `used` reads `script` (or the script is Latin, Common or unknown); otherwise
// "The page looks like Cyrillic script, which eng does not read: install its language data
// (e.g. Debian's tesseract-ocr-rus) and pass ocr_lang=\"rus\"." (on Windows, the data file and the
// folder to put it in instead of the package).
std::string script_note(const std::string& script, const std::vector<std::string>& used);

}  // namespace mcpread::readers::ocr
