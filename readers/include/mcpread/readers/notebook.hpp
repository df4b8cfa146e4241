#pragma once
// Jupyter notebooks rendered for a model: cells with their sources and outputs as text, image
// outputs as image blocks (through the image pipeline), base64 never in the text.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/image.hpp"
#include "mcpread/readers/outcome.hpp"

#include <cstdint>
#include <optional>

namespace mcpread::readers {

struct NotebookOptions {
  std::uint64_t offset = 1;                   // first cell, 1-based
  std::optional<std::uint64_t> limit;         // cells at most (all when absent)
  std::size_t max_output_bytes = 100 * 1024;  // cap on the text of one answer
  std::size_t max_chars_per_output = 8000;    // one cell output longer than this is trimmed
  std::uint64_t max_file_bytes = 64ull << 20; // larger notebooks are refused (read them as text)
  std::size_t max_images = 20;                // image outputs sent per answer at most
  ImageLimits image;
  Wording wording;                            // how the notes say what to read next
};

ReadOutcome read_notebook(const OpenedFile& file, const NotebookOptions& options,
                          const CancelToken& cancel);

}  // namespace mcpread::readers
