// SPDX-License-Identifier: MIT
#include <QTest>

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/analysis/gradientmanifest.h"
#include "core/analysis/metavalidation.h"
#include "core/io/tracereader.h"

using namespace TraceInspector;
using json = nlohmann::json;

namespace {

// Metadata is decoded by the real reader, so each row is a JSON merge patch over a valid meta.
const char *const kBaseMeta =
    R"({"kind":"meta","schema":"candle-graph/trace/10","run_id":"run-1","correlation_id":"corr-1",
"entrypoint":"model::forward","phase":"infer","timestamp":"2026-08-04T18:00:00Z","capture_step":1,"warmup_steps":0,
"device":"cpu","timing_mode":"host","capture_contract":{"measurement_scope":"unknown","operations":"none",
"logical_memory":"none","physical_memory":"none","device_timing":"none"},"tags":{}})";

const char *const kBaseIdentity = R"({"workload_id":"w","model_id":"m","config_id":"c","data_id":"d",
"seed_policy":"fixed:1","physical_batch":4,"accumulation_steps":1,"precision":"bf16","device_state":"warm"})";

// Manifest from §9.4 with families for each expectation kind.
const char *const kBaseGradientContract = R"({"manifest_sha256":"","expected":[
{"root":"train_vb","key":"a.weight","family":"active"},{"root":"train_vb","key":"b.weight","family":"active"},
{"root":"train_vb","key":"c.weight","family":"frozen"},{"root":"train_vb","key":"d.weight","family":"cond"}],
"families":[{"family":"active","expectation":"active","min_present":2},{"family":"frozen","expectation":"inactive","min_present":0},
{"family":"cond","expectation":"data_conditional","min_present":1}]})";

std::vector<ExpectedGradient> expectedFrom(const json &contract)
{
    std::vector<ExpectedGradient> out;
    for (const json &e : contract.at("expected"))
        out.push_back(
            {e.at("root").get<std::string>(), e.at("key").get<std::string>(), e.at("family").get<std::string>()});
    return out;
}

void setDigest(json &contract)
{
    contract["manifest_sha256"] = gradientManifestDigest(expectedFrom(contract));
}

std::optional<TraceMeta> decodeMeta(const json &meta)
{
    const std::string text =
        meta.dump() + "\n"
        + R"({"kind":"span_start","id":"root","name":"root","start_ns":0,"span_kind":"function","measured":true})"
          "\n"
        + R"({"kind":"span_end","id":"root","duration_ns":1})"
          "\n"
        + R"({"kind":"terminal","outcome":"complete","timestamp_ns":10})"
          "\n";
    const ReadResult r = TraceReader::readBytes(text, "meta.jsonl");
    if (!r.trace || !r.trace->meta) {
        qWarning("meta not decoded: %s", r.strictError ? r.strictError->message.c_str() : "?");
        return std::nullopt;
    }
    return r.trace->meta;
}

json patched(const char *base, const QByteArray &patch)
{
    json j = json::parse(base);
    if (!patch.isEmpty())
        j.merge_patch(json::parse(patch.toStdString()));
    return j;
}

QString text(const std::optional<std::string> &message)
{
    return message ? QString::fromStdString(*message) : QString();
}

} // namespace

class TestMetaValidation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runMeta_data();
    void runMeta();
    void comparisonIdentity_data();
    void comparisonIdentity();
    void captureContract_data();
    void captureContract();
    void gradientContract_data();
    void gradientContract();
    void manifestDigest_data();
    void manifestDigest();
};

void TestMetaValidation::runMeta_data()
{
    QTest::addColumn<QByteArray>("patch");
    QTest::addColumn<QString>("message");
    QTest::newRow("valid") << QByteArray() << QString();
    QTest::newRow("run_id empty") << QByteArray(R"({"run_id":""})")
                                  << QStringLiteral("run provenance run_id must not be empty");
    QTest::newRow("run_id spaces") << QByteArray(R"({"run_id":" \t "})")
                                   << QStringLiteral("run provenance run_id must not be empty");
    QTest::newRow("run_id ideographic space") << QByteArray("{\"run_id\":\"\xe3\x80\x80\xc2\xa0\"}")
                                              << QStringLiteral("run provenance run_id must not be empty");
    QTest::newRow("run_id BOM is not blank") << QByteArray("{\"run_id\":\"\xef\xbb\xbf\"}") << QString();
    QTest::newRow("correlation_id") << QByteArray(R"({"correlation_id":" "})")
                                    << QStringLiteral("run provenance correlation_id must not be empty");
    QTest::newRow("entrypoint") << QByteArray(R"({"entrypoint":"\n"})")
                                << QStringLiteral("run provenance entrypoint must not be empty");
    QTest::newRow("timestamp") << QByteArray(R"({"timestamp":""})")
                               << QStringLiteral("run provenance timestamp must not be empty");
    QTest::newRow("device") << QByteArray(R"({"device":"\u2028"})")
                            << QStringLiteral("run provenance device must not be empty");
    QTest::newRow("run_id before device")
        << QByteArray(R"({"device":"","run_id":""})") << QStringLiteral("run provenance run_id must not be empty");
    QTest::newRow("entrypoint before timestamp") << QByteArray(R"({"timestamp":"","entrypoint":""})")
                                                 << QStringLiteral("run provenance entrypoint must not be empty");
    QTest::newRow("blank before capture_step")
        << QByteArray(R"({"device":"","capture_step":0})") << QStringLiteral("run provenance device must not be empty");
    QTest::newRow("capture_step zero") << QByteArray(R"({"capture_step":0})")
                                       << QStringLiteral("capture_step must be one-based and greater than zero");
    QTest::newRow("warmup equals capture_step")
        << QByteArray(R"({"capture_step":3,"warmup_steps":3})")
        << QStringLiteral("warmup_steps (3) must be fewer than the one-based capture_step (3)");
    QTest::newRow("warmup above capture_step")
        << QByteArray(R"({"capture_step":2,"warmup_steps":18446744073709551615})")
        << QStringLiteral("warmup_steps (18446744073709551615) must be fewer than the one-based capture_step (2)");
    QTest::newRow("warmup below capture_step") << QByteArray(R"({"capture_step":3,"warmup_steps":2})") << QString();
    QTest::newRow("identity checked last") << QByteArray(
        R"({"capture_step":0,"comparison_identity":{"workload_id":"","model_id":"m","config_id":"c","data_id":"d","seed_policy":"s","physical_batch":1,"accumulation_steps":1,"precision":"p","device_state":"d"}})")
                                           << QStringLiteral("capture_step must be one-based and greater than zero");
    QTest::newRow("identity message surfaces") << QByteArray(
        R"({"comparison_identity":{"workload_id":"","model_id":"m","config_id":"c","data_id":"d","seed_policy":"s","physical_batch":1,"accumulation_steps":1,"precision":"p","device_state":"d"}})")
                                               << QStringLiteral("comparison identity workload_id must not be empty");
    QTest::newRow("contract not checked")
        << QByteArray(R"({"capture_contract":{"gradients":"complete","required_semantic_labels":["", ""]}})")
        << QString();
}

void TestMetaValidation::runMeta()
{
    QFETCH(QByteArray, patch);
    QFETCH(QString, message);
    const auto meta = decodeMeta(patched(kBaseMeta, patch));
    QVERIFY(meta);
    QCOMPARE(text(validateRunMeta(*meta)), message);
}

void TestMetaValidation::comparisonIdentity_data()
{
    QTest::addColumn<QByteArray>("patch");
    QTest::addColumn<QString>("message");
    QTest::newRow("valid") << QByteArray() << QString();
    QTest::newRow("valid with optionals") << QByteArray(R"({"implementation_id":"impl","pair_id":"p"})") << QString();
    const char *const required[] = {"workload_id", "model_id",  "config_id",   "data_id",
                                    "seed_policy", "precision", "device_state"};
    for (const char *field : required) {
        QTest::addRow("%s blank", field)
            << QByteArray("{\"") + field + "\":\" \"}"
            << QStringLiteral("comparison identity %1 must not be empty").arg(QLatin1String(field));
    }
    QTest::newRow("order: workload before device_state")
        << QByteArray(R"({"device_state":"","workload_id":""})")
        << QStringLiteral("comparison identity workload_id must not be empty");
    QTest::newRow("order: precision before device_state")
        << QByteArray(R"({"device_state":"","precision":""})")
        << QStringLiteral("comparison identity precision must not be empty");
    QTest::newRow("implementation_id declared blank")
        << QByteArray(R"({"implementation_id":""})")
        << QStringLiteral("comparison identity implementation_id must not be empty when declared");
    QTest::newRow("pair_id declared blank")
        << QByteArray(R"({"pair_id":"\t"})")
        << QStringLiteral("comparison identity pair_id must not be empty when declared");
    QTest::newRow("implementation_id before pair_id")
        << QByteArray(R"({"pair_id":"","implementation_id":""})")
        << QStringLiteral("comparison identity implementation_id must not be empty when declared");
    QTest::newRow("null optional is absent") << QByteArray(R"({"pair_id":null})") << QString();
    QTest::newRow("required before declared") << QByteArray(R"({"implementation_id":"","device_state":""})")
                                              << QStringLiteral("comparison identity device_state must not be empty");
    QTest::newRow("physical_batch zero") << QByteArray(
        R"({"physical_batch":0})") << QStringLiteral("comparison identity physical_batch must be greater than zero");
    QTest::newRow("accumulation_steps zero")
        << QByteArray(R"({"accumulation_steps":0})")
        << QStringLiteral("comparison identity accumulation_steps must be greater than zero");
    QTest::newRow("batch before accumulation")
        << QByteArray(R"({"accumulation_steps":0,"physical_batch":0})")
        << QStringLiteral("comparison identity physical_batch must be greater than zero");
    QTest::newRow("declared before batch")
        << QByteArray(R"({"physical_batch":0,"pair_id":""})")
        << QStringLiteral("comparison identity pair_id must not be empty when declared");
}

void TestMetaValidation::comparisonIdentity()
{
    QFETCH(QByteArray, patch);
    QFETCH(QString, message);
    json meta = json::parse(kBaseMeta);
    meta["comparison_identity"] = patched(kBaseIdentity, patch);
    const auto decoded = decodeMeta(meta);
    QVERIFY(decoded && decoded->comparisonIdentity);
    QCOMPARE(text(validateComparisonIdentity(*decoded->comparisonIdentity)), message);
    QCOMPARE(text(validateRunMeta(*decoded)), message);
}

void TestMetaValidation::captureContract_data()
{
    QTest::addColumn<QByteArray>("patch");
    QTest::addColumn<QString>("message");
    QTest::newRow("valid, no labels") << QByteArray() << QString();
    QTest::newRow("valid labels, no classes") << QByteArray(R"({"required_semantic_labels":["a","b"]})") << QString();
    QTest::newRow("blank required label") << QByteArray(R"({"required_semantic_labels":["a"," "]})")
                                          << QStringLiteral("required semantic labels must not be empty");
    QTest::newRow("duplicate required label")
        << QByteArray(R"({"required_semantic_labels":["a","b","a"]})")
        << QStringLiteral("required semantic label `a` is declared more than once");
    QTest::newRow("duplicate before later blank")
        << QByteArray(R"({"required_semantic_labels":["a","a",""]})")
        << QStringLiteral("required semantic label `a` is declared more than once");
    QTest::newRow("labels are not trimmed for duplicates")
        << QByteArray(R"({"required_semantic_labels":["a"," a"]})") << QString();
    QTest::newRow("valid partition") << QByteArray(
        R"({"required_semantic_labels":["a","b","c"],"gpu_expected_semantic_labels":["b","a"],"cpu_only_semantic_labels":["c"]})")
                                     << QString();
    QTest::newRow("GPU blank") << QByteArray(
        R"({"required_semantic_labels":["a"],"gpu_expected_semantic_labels":[""]})")
                               << QStringLiteral("GPU-expected semantic labels must not be empty");
    QTest::newRow("CPU blank") << QByteArray(
        R"({"required_semantic_labels":["a"],"gpu_expected_semantic_labels":["a"],"cpu_only_semantic_labels":[" "]})")
                               << QStringLiteral("CPU-only semantic labels must not be empty");
    QTest::newRow("GPU duplicate") << QByteArray(
        R"({"required_semantic_labels":["a"],"gpu_expected_semantic_labels":["a","a"]})")
                                   << QStringLiteral("GPU-expected semantic label `a` is declared more than once");
    QTest::newRow("CPU duplicate") << QByteArray(
        R"({"required_semantic_labels":["a","b"],"gpu_expected_semantic_labels":["a"],"cpu_only_semantic_labels":["b","b"]})")
                                   << QStringLiteral("CPU-only semantic label `b` is declared more than once");
    QTest::newRow("GPU unrequired")
        << QByteArray(R"({"required_semantic_labels":["a"],"gpu_expected_semantic_labels":["x"]})")
        << QStringLiteral("GPU-expected semantic label `x` is not a required application label");
    QTest::newRow("CPU unrequired")
        << QByteArray(R"({"required_semantic_labels":["a"],"cpu_only_semantic_labels":["a","y"]})")
        << QStringLiteral("CPU-only semantic label `y` is not a required application label");
    QTest::newRow("overlap") << QByteArray(
        R"({"required_semantic_labels":["a","b"],"gpu_expected_semantic_labels":["a","b"],"cpu_only_semantic_labels":["b"]})")
                             << QStringLiteral("semantic label `b` is classified as both GPU-expected and CPU-only");
    QTest::newRow("GPU list checked before CPU list")
        << QByteArray(
               R"({"required_semantic_labels":["a"],"gpu_expected_semantic_labels":["x"],"cpu_only_semantic_labels":[""]})")
        << QStringLiteral("GPU-expected semantic label `x` is not a required application label");
    QTest::newRow("incomplete partition")
        << QByteArray(R"({"required_semantic_labels":["a","b"],"gpu_expected_semantic_labels":["a"]})")
        << QStringLiteral("GPU-expected and CPU-only semantic labels must partition all required application labels");
    QTest::newRow("only CPU list, incomplete")
        << QByteArray(R"({"required_semantic_labels":["a","b"],"cpu_only_semantic_labels":["b"]})")
        << QStringLiteral("GPU-expected and CPU-only semantic labels must partition all required application labels");
    QTest::newRow("classes without labels")
        << QByteArray(R"({"gpu_expected_semantic_labels":["a"]})")
        << QStringLiteral("GPU-expected semantic label `a` is not a required application label");
    QTest::newRow("label checks before gradient rule")
        << QByteArray(R"({"gradients":"complete","required_semantic_labels":[""]})")
        << QStringLiteral("required semantic labels must not be empty");
    QTest::newRow("complete gradients without contract")
        << QByteArray(R"({"gradients":"complete"})")
        << QStringLiteral("complete gradient coverage requires an exact gradient contract");
    QTest::newRow("partition before gradient rule")
        << QByteArray(R"({"gradients":"complete","required_semantic_labels":["a"],"cpu_only_semantic_labels":[]})")
        << QStringLiteral("complete gradient coverage requires an exact gradient contract");
    QTest::newRow("partial gradients") << QByteArray(R"({"gradients":"partial"})") << QString();
}

void TestMetaValidation::captureContract()
{
    QFETCH(QByteArray, patch);
    QFETCH(QString, message);
    json meta = json::parse(kBaseMeta);
    if (!patch.isEmpty())
        meta["capture_contract"].merge_patch(json::parse(patch.toStdString()));
    const auto decoded = decodeMeta(meta);
    QVERIFY(decoded);
    QCOMPARE(text(validateCaptureContract(decoded->captureContract)), message);
}

void TestMetaValidation::gradientContract_data()
{
    QTest::addColumn<QByteArray>("patch");
    QTest::addColumn<bool>("fixDigest");
    QTest::addColumn<QString>("message");
    QTest::newRow("valid") << QByteArray() << true << QString();
    QTest::newRow("empty manifest") << QByteArray(R"({"expected":[],"families":[]})") << true
                                    << QStringLiteral("gradient manifest must not be empty");
    QTest::newRow("empty families") << QByteArray(R"({"families":[]})") << true
                                    << QStringLiteral("gradient families must not be empty");
    QTest::newRow("digest mismatch") << QByteArray(
        R"({"manifest_sha256":"sha256:0000000000000000000000000000000000000000000000000000000000000000"})")
                                     << false
                                     << QStringLiteral(
                                            "gradient manifest SHA-256 does not match its ordered parameter manifest");
    QTest::newRow("digest in upper case")
        << QByteArray(R"({"manifest_sha256":"SHA256:..."})") << false
        << QStringLiteral("gradient manifest SHA-256 does not match its ordered parameter manifest");
    QTest::newRow("digest before blank entries")
        << QByteArray(R"({"expected":[{"root":"","key":"k","family":"active"}]})") << false
        << QStringLiteral("gradient manifest SHA-256 does not match its ordered parameter manifest");
    QTest::newRow("blank root") << QByteArray(R"({"expected":[{"root":" ","key":"k","family":"active"}]})") << true
                                << QStringLiteral("gradient manifest root, key, and family must not be empty");
    QTest::newRow("blank key") << QByteArray(R"({"expected":[{"root":"r","key":"","family":"active"}]})") << true
                               << QStringLiteral("gradient manifest root, key, and family must not be empty");
    QTest::newRow("blank family") << QByteArray(R"({"expected":[{"root":"r","key":"k","family":"\u3000"}]})") << true
                                  << QStringLiteral("gradient manifest root, key, and family must not be empty");
    QTest::newRow("duplicate pair") << QByteArray(
        R"({"expected":[{"root":"r","key":"k\"1","family":"active"},{"root":"r","key":"k\"1","family":"other"}]})")
                                    << true
                                    << QStringLiteral(R"(gradient manifest declares ("r", "k\"1") more than once)");
    QTest::newRow("duplicate pair before blank entry") << QByteArray(
        R"({"expected":[{"root":"r","key":"k","family":"active"},{"root":"r","key":"k","family":"active"},{"root":"","key":"","family":""}]})")
                                                       << true
                                                       << QStringLiteral(
                                                              R"(gradient manifest declares ("r", "k") more than once)");
    QTest::newRow("blank family name") << QByteArray(
        R"({"families":[{"family":" ","expectation":"active","min_present":1}]})")
                                       << true << QStringLiteral("gradient family name must not be empty");
    QTest::newRow("family declared twice") << QByteArray(
        R"({"families":[{"family":"active","expectation":"active","min_present":1},{"family":"active","expectation":"inactive","min_present":0}]})")
                                           << true
                                           << QStringLiteral(R"(gradient family "active" is declared more than once)");
    QTest::newRow("family without members")
        << QByteArray(R"({"families":[{"family":"ghost","expectation":"inactive","min_present":0}]})") << true
        << QStringLiteral(R"(gradient family "ghost" has no manifest members)");
    QTest::newRow("inactive with minimum")
        << QByteArray(R"({"families":[{"family":"frozen","expectation":"inactive","min_present":1}]})") << true
        << QStringLiteral(R"(inactive gradient family "frozen" must have min_present=0)");
    QTest::newRow("active minimum zero")
        << QByteArray(R"({"families":[{"family":"active","expectation":"active","min_present":0}]})") << true
        << QStringLiteral(R"(active or data-conditional gradient family "active" needs min_present in 1..=2)");
    QTest::newRow("active minimum above members")
        << QByteArray(R"({"families":[{"family":"active","expectation":"active","min_present":3}]})") << true
        << QStringLiteral(R"(active or data-conditional gradient family "active" needs min_present in 1..=2)");
    QTest::newRow("conditional minimum zero")
        << QByteArray(R"({"families":[{"family":"cond","expectation":"data_conditional","min_present":0}]})") << true
        << QStringLiteral(R"(active or data-conditional gradient family "cond" needs min_present in 1..=1)");
    QTest::newRow("families in contract order") << QByteArray(
        R"({"families":[{"family":"frozen","expectation":"inactive","min_present":2},{"family":"active","expectation":"active","min_present":9}]})")
                                                << true
                                                << QStringLiteral(
                                                       R"(inactive gradient family "frozen" must have min_present=0)");
    // After the per-family checks, manifest families without a contract in byte-wise order.
    QTest::newRow("manifest family without contract")
        << QByteArray(R"({"families":[{"family":"active","expectation":"active","min_present":2}]})") << true
        << QStringLiteral(R"(gradient manifest family "cond" has no family contract)");
    QTest::newRow("uncontracted family, byte-wise first")
        << QByteArray(R"({"families":[{"family":"cond","expectation":"data_conditional","min_present":1}]})") << true
        << QStringLiteral(R"(gradient manifest family "active" has no family contract)");
    QTest::newRow("family name debug-quoted") << QByteArray(
        R"({"expected":[{"root":"r","key":"k","family":"f\u200b"}],"families":[{"family":"f\u200b","expectation":"inactive","min_present":3}]})")
                                              << true
                                              << QStringLiteral(
                                                     R"(inactive gradient family "f\u{200b}" must have min_present=0)");
}

void TestMetaValidation::gradientContract()
{
    QFETCH(QByteArray, patch);
    QFETCH(bool, fixDigest);
    QFETCH(QString, message);
    json contract = patched(kBaseGradientContract, patch);
    if (fixDigest)
        setDigest(contract);
    json meta = json::parse(kBaseMeta);
    meta["capture_contract"]["gradients"] = "complete";
    meta["capture_contract"]["gradient_contract"] = contract;
    const auto decoded = decodeMeta(meta);
    QVERIFY(decoded && decoded->captureContract.gradientContract);
    QCOMPARE(text(validateGradientContract(*decoded->captureContract.gradientContract)), message);
    QCOMPARE(text(validateCaptureContract(decoded->captureContract)), message);

    // The coverage pairing rule comes first when the contract is not declared complete.
    meta["capture_contract"]["gradients"] = "partial";
    const auto partial = decodeMeta(meta);
    QVERIFY(partial);
    QCOMPARE(text(validateCaptureContract(partial->captureContract)),
             QStringLiteral("an exact gradient contract requires complete declared gradient coverage"));
}

void TestMetaValidation::manifestDigest_data()
{
    QTest::addColumn<QByteArray>("expected");
    QTest::addColumn<QString>("digest");
    // Reference values computed independently (Python hashlib) from the §9.4 byte layout.
    QTest::newRow("empty") << QByteArray("[]")
                           << QStringLiteral("sha256:1a7019dd31b542e1d63c1ef86f0c96c188b624427fac0f6145678c3c453da80a");
    QTest::newRow("two lora weights") << QByteArray(
        R"([{"root":"train_vb","key":"layers.0.lora_a.weight","family":"lora"},{"root":"train_vb","key":"layers.0.lora_b.weight","family":"lora"}])")
                                      << QStringLiteral(
                                             "sha256:39f4ef273b9a4f8f6be6c34e764d9db48e430c0531c3473916bef11823e51d6d");
    QTest::newRow("order matters") << QByteArray(
        R"([{"root":"train_vb","key":"layers.0.lora_b.weight","family":"lora"},{"root":"train_vb","key":"layers.0.lora_a.weight","family":"lora"}])")
                                   << QStringLiteral(
                                          "sha256:8db08d74ac71cc9dc09c072a43a3b07f9bc0e41e95859d06eacc80c20439dcd0");
    QTest::newRow("utf-8 byte length")
        << QByteArray(R"([{"root":"p","key":"\u00fc","family":"fam"}])")
        << QStringLiteral("sha256:f8ce25a5122f4c12d56dea1bc8a0d28fdc1d03de23220d83a6382f74c9ef831d");
    QTest::newRow("three families") << QByteArray(
        R"([{"root":"parameters","key":"trunk.weight","family":"trunk"},{"root":"parameters","key":"frozen.weight","family":"frozen"},{"root":"parameters","key":"head.weight","family":"head"}])")
                                    << QStringLiteral(
                                           "sha256:ffd4c38a78880a270f393c73c63924b320c3338ac1e7d4a0b83e80350c0f6ce5");
}

void TestMetaValidation::manifestDigest()
{
    QFETCH(QByteArray, expected);
    QFETCH(QString, digest);
    json contract;
    contract["expected"] = json::parse(expected.toStdString());
    QCOMPARE(QString::fromStdString(gradientManifestDigest(expectedFrom(contract))), digest);
}

QTEST_GUILESS_MAIN(TestMetaValidation)
#include "tst_metavalidation.moc"
