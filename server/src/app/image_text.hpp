#pragma once
// For hosts that may drop images (Gemini CLI with gemini-3 models, the AI SDK through OpenAI chat
// completions): each image of an answer is followed by its text, read with OCR, so that a model
// that never sees the image still gets what it says.
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/outcome.hpp"
#include "mcpread/readers/read.hpp"

namespace mcpread::server {

// At most this many images per answer get a stand-in (each costs an OCR run the first time).
constexpr std::size_t image_text_max_images = 4;

// Puts after each image block a text block with the image's text; images without text get a
// short note. Nothing changes when OCR cannot run (no libtesseract, no language data).
void add_image_text(readers::ReadOutcome& outcome, const readers::ReadRequest& request,
                    const readers::ReadLimits& limits, const readers::CancelToken& cancel);

}  // namespace mcpread::server
