#include "schema_validator.hpp"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace mcpread::test {
namespace {

using nlohmann::json;

const json& schema_document(const std::string& version) {
  static std::mutex mutex;
  static std::map<std::string, json> documents;
  std::lock_guard lock(mutex);
  auto it = documents.find(version);
  if (it != documents.end()) return it->second;
  const std::string path = std::string(MCPREAD_SCHEMA_DIR) + "/" + version + ".json";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("missing schema " + path);
  return documents.emplace(version, json::parse(in)).first->second;
}

// A schema whose root is a $ref to one definition; the rest of the document rides along so
// that references resolve. The keywords used by every version are draft-07's.
const valijson::Schema& compiled(const std::string& version, const std::string& definition) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<valijson::Schema>> cache;
  const std::string key = version + "#" + definition;
  std::lock_guard lock(mutex);
  if (auto it = cache.find(key); it != cache.end()) return *it->second;
  json doc = schema_document(version);
  const std::string defs = doc.contains("$defs") ? "$defs" : "definitions";
  if (!doc[defs].contains(definition))
    throw std::runtime_error("schema " + version + " has no definition " + definition);
  doc.erase("$schema");
  doc["$ref"] = "#/" + defs + "/" + definition;
  auto schema = std::make_unique<valijson::Schema>();
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  valijson::adapters::NlohmannJsonAdapter adapter(doc);
  parser.populateSchema(adapter, *schema);
  return *cache.emplace(key, std::move(schema)).first->second;
}

std::string result_definition(const std::string& method) {
  if (method == "initialize") return "InitializeResult";
  if (method == "tools/list") return "ListToolsResult";
  if (method == "tools/call") return "CallToolResult";
  if (method == "ping" || method == "logging/setLevel" || method == "resources/subscribe" ||
      method == "resources/unsubscribe")
    return "EmptyResult";
  if (method == "prompts/list") return "ListPromptsResult";
  if (method == "prompts/get") return "GetPromptResult";
  if (method == "completion/complete") return "CompleteResult";
  if (method == "server/discover") return "DiscoverResult";
  if (method == "resources/list") return "ListResourcesResult";
  if (method == "resources/templates/list") return "ListResourceTemplatesResult";
  if (method == "resources/read") return "ReadResourceResult";
  if (method == "subscriptions/listen") return "SubscriptionsListenResult";
  return {};
}

std::string notification_definition(const std::string& method) {
  if (method == "notifications/message") return "LoggingMessageNotification";
  if (method == "notifications/progress") return "ProgressNotification";
  if (method == "notifications/resources/updated") return "ResourceUpdatedNotification";
  if (method == "notifications/subscriptions/acknowledged") return "SubscriptionsAcknowledgedNotification";
  if (method == "notifications/tools/list_changed") return "ToolListChangedNotification";
  if (method == "notifications/prompts/list_changed") return "PromptListChangedNotification";
  if (method == "notifications/resources/list_changed") return "ResourceListChangedNotification";
  return "JSONRPCNotification";
}

}  // namespace

std::string schema_errors(const std::string& version, const std::string& definition,
                          const json& instance) {
  const valijson::Schema& schema = compiled(version, definition);
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter adapter(instance);
  if (validator.validate(schema, adapter, &results)) return {};
  std::string out = version + " " + definition + ":";
  valijson::ValidationResults::Error error;
  while (results.popError(error)) {
    out += "\n  ";
    for (const auto& part : error.context) out += part;
    out += ": " + error.description;
  }
  return out;
}

std::string server_message_errors(const std::string& version, const json& message,
                                  const std::string& request_method) {
  const bool new_names = version >= "2025-11-25";
  if (message.contains("error")) {
    std::string errors = schema_errors(version, new_names ? "JSONRPCErrorResponse" : "JSONRPCError", message);
    const json code = message["error"].value("code", json());
    if (version >= "2026-07-28" && code == -32021)
      errors += schema_errors(version, "MissingRequiredClientCapabilityError", message);
    if (version >= "2026-07-28" && code == -32022)
      errors += schema_errors(version, "UnsupportedProtocolVersionError", message);
    if (version >= "2026-07-28" && code == -32020) errors += schema_errors(version, "HeaderMismatchError", message);
    return errors;
  }
  if (message.contains("result")) {
    std::string errors =
        schema_errors(version, new_names ? "JSONRPCResultResponse" : "JSONRPCResponse", message);
    std::string definition = result_definition(request_method);
    // A stateless request answered with "ask me again with this input" (multi round-trip).
    if (message["result"].is_object() && message["result"].value("resultType", "") == "input_required")
      definition = "InputRequiredResult";
    // A CreateTaskResult (tasks extension): the 2026-07-28 schema has no definition for it.
    if (message["result"].is_object() && message["result"].value("resultType", "") == "task") definition.clear();
    if (!definition.empty()) errors += schema_errors(version, definition, message["result"]);
    return errors;
  }
  if (message.contains("method") && message.contains("id")) {
    std::string errors = schema_errors(version, "JSONRPCRequest", message);
    if (message["method"] == "roots/list") errors += schema_errors(version, "ListRootsRequest", message);
    if (message["method"] == "sampling/createMessage")
      errors += schema_errors(version, "CreateMessageRequest", message);
    if (message["method"] == "elicitation/create") errors += schema_errors(version, "ElicitRequest", message);
    return errors;
  }
  if (message.contains("method"))
    return schema_errors(version, "JSONRPCNotification", message) +
           schema_errors(version, notification_definition(message["method"].get<std::string>()), message);
  return "not a JSON-RPC message: " + message.dump();
}

std::string schema_file_errors(const std::string& schema_path, const json& instance) {
  std::ifstream in(schema_path);
  if (!in) return "cannot open the schema " + schema_path;
  json doc = json::parse(in, nullptr, false);
  if (doc.is_discarded()) return "the schema " + schema_path + " is not JSON";
  doc.erase("$schema");
  valijson::Schema schema;
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  valijson::adapters::NlohmannJsonAdapter schema_adapter(doc);
  parser.populateSchema(schema_adapter, schema);
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter adapter(instance);
  if (validator.validate(schema, adapter, &results)) return {};
  std::string out;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) {
    if (!out.empty()) out += "\n";
    for (const auto& part : error.context) out += part;
    out += ": " + error.description;
  }
  return out;
}

}  // namespace mcpread::test
