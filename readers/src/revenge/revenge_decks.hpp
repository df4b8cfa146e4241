#pragma once
// Decks of the Document Liberation Project's importers, read as PPTX decks are (sections::render):
// the drawings and publications (Visio, Publisher, CorelDRAW, FreeHand, PageMaker, QuarkXPress,
// Zoner Draw) page by page, Keynote presentations slide by slide, each with its text, its
// embedded raster images after it and a slide's notes; `pages` picks them. The importers parse the
// whole file in a child process (revenge_document.hpp); the deck is kept in the PartCache, as a
// .ppt's is, for the next calls on the same file. Internal to the readers library.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/outcome.hpp"
#include "office/block_images.hpp"
#include "sections/sections.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers::revenge {

// What the plugin's answer holds: the deck, its pictures ("image3.png", named by the sections'
// images) and the format's name.
struct ImportedDeck {
  sections::Deck deck;
  std::vector<office::HeldPicture> pictures;
  std::size_t pictures_not_shown = 0;  // vector pictures (WMF, EMF) and those over the limit
  bool text_cut = false;
};

// `what` names the kind in refusals: "a drawing", "a Keynote presentation".
ReadOutcome read_revenge_deck_file(const OpenedFile& file, std::string_view what, const sections::Options& options,
                                   const CancelToken& cancel);

// The same from bytes in memory (tests, fuzzing); `name` stands for the path in messages.
ReadOutcome read_revenge_deck_bytes(std::string_view bytes, std::string_view name, std::string_view what,
                                    const sections::Options& options, const CancelToken& cancel);

// The plugin's answer (revenge_plugin_api.h's JSON of mcpread_revenge_read_deck) made a deck;
// false when malformed.
bool deck_from_plugin_json(std::string_view json, ImportedDeck* out);

}  // namespace mcpread::readers::revenge
