#pragma once
// DOCX (word/document.xml and the parts it names) and ODT (content.xml) read into a Document.
// Internal to the readers library.
#include "office/document.hpp"
#include "package/zip_archive.hpp"

#include <string>

namespace mcpread::readers::office {

// False with a sentence in *error (a part missing, not well-formed, over a limit, encrypted).
bool read_docx(package::ZipArchive& zip, Document* doc, std::string* error);
bool read_odt(package::ZipArchive& zip, Document* doc, std::string* error);

}  // namespace mcpread::readers::office
