#pragma once
// DOCX and ODT read for a model: the document as Markdown-like text, paged by paragraphs, its
// images after their paragraph through the image pipeline. Internal to the readers library.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/image.hpp"
#include "mcpread/readers/outcome.hpp"
#include "office/block_images.hpp"
#include "office/document.hpp"
#include "package/zip_archive.hpp"

#include <cstdint>
#include <optional>

namespace mcpread::readers::office {

enum class Format { docx, odt };

struct OfficeOptions {
  std::uint64_t offset = 1;                   // first paragraph, 1-based
  std::optional<std::uint64_t> limit;         // paragraphs at most (all that fit when absent)
  std::size_t max_output_bytes = 100 * 1024;  // cap on the text of one answer
  std::size_t max_images = 20;                // images sent per answer at most
  ImageLimits image;
  package::ZipLimits zip;
  Wording wording;  // how the notes say what to read next
};

ReadOutcome read_office(const OpenedFile& file, Format format, const OfficeOptions& options,
                        const CancelToken& cancel);

// A Document read from elsewhere (RTF) as the same paged text, its header naming it as `noun`
// ("RTF document"); `parts` gives the bytes of the images its blocks name.
ReadOutcome render_document(const Document& doc, const PartReader& parts, std::string_view noun, std::string_view path,
                            const OfficeOptions& options, const CancelToken& cancel, nlohmann::json meta);

// The same from bytes in memory (tests, fuzzing); `name` stands for the path in messages.
ReadOutcome read_office_bytes(std::string_view bytes, std::string_view name, Format format,
                              const OfficeOptions& options, const CancelToken& cancel);

}  // namespace mcpread::readers::office
