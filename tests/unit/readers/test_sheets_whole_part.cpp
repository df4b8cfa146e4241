// A spreadsheet part held whole in the cache (shared strings, a worksheet's frame, an ODS
// content.xml) is read by pugixml (XmlFragment::run_whole) so that libxml2 is not loaded for it:
// the events must be libxml2's for the same bytes, and a part pugixml would read differently is
// left to libxml2 before any event is delivered.
#include "sheets/xml_fragment.hpp"
#include "sheets/xml_stream.hpp"
#include "xml_event_recorder.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace mcpread::readers;

namespace {

using Recorder = mcpread::test::XmlEventRecorder;

std::vector<std::string> libxml2_events(const std::string& part) {
  Recorder r;
  std::string error;
  auto stream = sheets::XmlStream::create(r, "p.xml", &error);
  REQUIRE(stream != nullptr);
  REQUIRE(stream->feed(part, true));
  return r.events;
}

// The events, or {"left to libxml2"} with none delivered.
std::vector<std::string> whole_events(const std::string& part, std::string* error) {
  Recorder r;
  std::string bytes = part;
  const auto result = sheets::XmlFragment().run_whole(bytes, "p.xml", r, [] { return false; }, error);
  if (result == sheets::XmlFragment::Result::not_well_formed) {
    CHECK(r.events.empty());
    return {"left to libxml2"};
  }
  return r.events;
}

const std::string kDeclaration = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\r\n";

}  // namespace

TEST_CASE("sheets whole part: pugixml gives libxml2's events, or leaves the part to libxml2") {
  std::string error;
  SUBCASE("a shared-strings part as Excel writes it") {
    const std::string part = kDeclaration +
                             "<sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" count=\"3\">"
                             "<si><t>a&amp;b &#x263A;</t></si><si><r><t xml:space=\"preserve\"> c\r\nd </t></r>"
                             "<rPh sb=\"0\"><t>ruby</t></rPh></si><!-- note --><si><t><![CDATA[x<y]]></t></si></sst>\n";
    CHECK(whole_events(part, &error) == libxml2_events(part));
    CHECK(whole_events(part, &error).size() > 10);
  }
  SUBCASE("prefixed names, namespace declarations and whitespace in attribute values") {
    const std::string part = "<o:doc xmlns:o=\"urn:o\" xmlns:t=\"urn:t\"><t:table t:name=\"a\tb\"><t:row/></t:table>\n</o:doc>";
    CHECK(whole_events(part, &error) == libxml2_events(part));
  }
  SUBCASE("an ampersand in an attribute value, as an entity or a character reference") {
    // libxml2 leaves each as the text "&#38;" without entity substitution; the stream undoes it.
    const std::string part = "<table name=\"R&amp;D &#38; Co &amp;#38; &lt;x&gt;\" formula=\"of:=[.A1]&amp;[.B1]\"/>";
    const std::vector<std::string> events = {"<table name=R&D & Co &#38; <x> formula=of:=[.A1]&[.B1]>", "</table>"};
    CHECK(libxml2_events(part) == events);
    CHECK(whole_events(part, &error) == events);
  }
  SUBCASE("a part pugixml would read differently is left to libxml2") {
    for (const std::string part : {
             "<!DOCTYPE sst [<!ENTITY e \"x\">]><sst><si><t>&e;</t></si></sst>",  // libxml2 refuses a DOCTYPE
             "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><sst><si><t>\xE9</t></si></sst>",
             "<sst><si><t>\xC3</t></si></sst>",        // not UTF-8
             "<sst><si><t>a\x01</t></si></sst>",        // a control character XML forbids
             "<sst><si><t>&xxe;</t></si></sst>",        // an entity never declared
             "<sst><si><t>&#0;</t></si></sst>",         // character references XML does not allow
             "<sst><si><t>&#xD800;</t></si></sst>", "<sst><si><t>&#12</t></si></sst>",
             "<sst><si><t>&#xZZ;</t></si></sst>", "<sst><si><t>&#99999999;</t></si></sst>",
             "<sst/><sst/>", "<sst/>text", "text", "",  // not one root element
             "<sst><si></sst>",                         // not well-formed
         }) {
      CAPTURE(part);
      CHECK(whole_events(part, &error) == std::vector<std::string>{"left to libxml2"});
      CHECK(error.starts_with("\"p.xml\" is left to libxml2 ("));
    }
  }
  SUBCASE("a part larger than 256 KiB is left to libxml2, whose stream holds less of it") {
    std::string part = "<sst>";
    while (part.size() <= sheets::XmlFragment::kMaxWholePart) part += "<si><t>text</t></si>";
    part += "</sst>";
    CHECK(whole_events(part, &error) == std::vector<std::string>{"left to libxml2"});
    CHECK(error == "\"p.xml\" is left to libxml2 (larger than pugixml is given whole)");
    CHECK(whole_events(part.substr(0, 5 + 20 * 50) + "</sst>", &error).size() == 2 + 50 * 5);
  }
  SUBCASE("nested past 100 elements: refused as libxml2 refuses it") {
    std::string deep;
    for (int i = 0; i < 101; ++i) deep += "<x>";
    for (int i = 0; i < 101; ++i) deep += "</x>";
    Recorder r;
    const auto result = sheets::XmlFragment().run_whole(deep, "p.xml", r, [] { return false; }, &error);
    CHECK(result == sheets::XmlFragment::Result::too_deep);
    CHECK(error == "\"p.xml\" is nested more than 100 elements deep");
  }
  SUBCASE("the handler stops it") {
    std::string part = "<sst><si><t>a</t></si><si><t>b</t></si></sst>";
    Recorder r;
    const auto result = sheets::XmlFragment().run_whole(part, "p.xml", r, [&] { return r.events.size() >= 3; }, &error);
    CHECK(result == sheets::XmlFragment::Result::read);
    CHECK(r.events == std::vector<std::string>{"<sst>", "<si>", "<t>"});
  }
}
