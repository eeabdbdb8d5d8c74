// SPDX-License-Identifier: MIT
// Evidence bundles (docs/COMPARISON.md §2): upstream's verify_bundle rules and messages
// (tampered, resized, missing, undeclared, symlinked and special files, unsafe paths, the
// manifest itself), the manifest's serde reading, and the cohort loader's message chains.
#include <QTest>
#include <QTemporaryDir>

#include <functional>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include "core/analysis/sha256.h"
#include "core/comparison/bundlemanifest.h"
#include "core/comparison/bundleverifier.h"
#include "core/comparison/cohortloader.h"

using namespace TraceInspector;

class TestComparisonBundle : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void verifyValid();
    void verification_data();
    void verification();
    void safePaths_data();
    void safePaths();
    void manifestParse_data();
    void manifestParse();
    void consumedFiles();
    void loaderChains_data();
    void loaderChains();
};

namespace {

std::string traceText(const std::string &runId, std::uint64_t durationNs)
{
    return "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"" + runId
           + "\",\"correlation_id\":\"c\",\"entrypoint\":\"demo::infer\",\"phase\":\"infer\",\"timestamp\":\"t\","
             "\"capture_step\":6,\"warmup_steps\":5,\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":"
             "{\"measurement_scope\":\"production_equivalent\",\"operations\":\"none\",\"logical_memory\":\"none\","
             "\"physical_memory\":\"none\",\"device_timing\":\"none\"},\"tags\":{}}\n"
             "{\"kind\":\"span_start\",\"id\":\"root\",\"name\":\"infer\",\"start_ns\":0,\"span_kind\":\"function\",\"measured\":true}\n"
             "{\"kind\":\"span_end\",\"id\":\"root\",\"duration_ns\":"
           + std::to_string(durationNs) + "}\n{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":"
           + std::to_string(durationNs) + "}\n";
}

bool writeFile(const std::string &path, const std::string &content)
{
    FILE *f = std::fopen(path.c_str(), "wb");
    if (!f)
        return false;
    const bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size();
    return std::fclose(f) == 0 && ok;
}

std::string readFile(const std::string &path)
{
    std::string out;
    if (FILE *f = std::fopen(path.c_str(), "rb")) {
        char buf[4096];
        std::size_t n = 0;
        while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
            out.append(buf, n);
        std::fclose(f);
    }
    return out;
}

struct Entry {
    std::string path;
    std::string content;
};

/// The manifest upstream writes for \a files (pretty JSON, sorted by path, newline).
std::string manifestFor(const std::string &runId, std::vector<Entry> files)
{
    std::sort(files.begin(), files.end(), [](const Entry &a, const Entry &b) { return a.path < b.path; });
    std::string m = "{\n  \"schema\": \"candle-graph/bundle/1\",\n  \"run_id\": \"" + runId + "\",\n  \"files\": [";
    for (std::size_t i = 0; i < files.size(); ++i) {
        m += i ? ",\n" : "\n";
        m += "    {\n      \"path\": \"" + files[i].path
             + "\",\n      \"bytes\": " + std::to_string(files[i].content.size()) + ",\n      \"sha256\": \""
             + Sha256::hexOf(files[i].content) + "\"\n    }";
    }
    m += files.empty() ? "]\n}\n" : "\n  ]\n}\n";
    return m;
}

/// A valid bundle: trace.jsonl, evidence.json and nsight/capture.bin.
std::string makeBundle(const QTemporaryDir &dir, const std::string &name, const std::string &runId = "run-1",
                       std::uint64_t durationNs = 100)
{
    const std::string root = dir.path().toStdString() + "/" + name;
    ::mkdir(root.c_str(), 0777);
    ::mkdir((root + "/nsight").c_str(), 0777);
    const std::vector<Entry> files{
        {"trace.jsonl", traceText(runId, durationNs)}, {"evidence.json", "{}\n"}, {"nsight/capture.bin", "raw"}};
    for (const Entry &e : files)
        writeFile(root + "/" + e.path, e.content);
    writeFile(root + "/bundle.json", manifestFor(runId, files));
    return root;
}

void replaceInManifest(const std::string &root, const std::string &from, const std::string &to)
{
    std::string m = readFile(root + "/bundle.json");
    const auto at = m.find(from);
    QVERIFY2(at != std::string::npos, from.c_str());
    m.replace(at, from.size(), to);
    QVERIFY(writeFile(root + "/bundle.json", m));
}

using Tamper = std::function<void(const std::string &root)>;

} // namespace

Q_DECLARE_METATYPE(Tamper)

void TestComparisonBundle::verifyValid()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string root = makeBundle(dir, "b");
    const BundleCheck check = verifyBundle(root);
    QVERIFY2(check.receipt, check.error.c_str());
    QCOMPARE(check.receipt->runId, std::string("run-1"));
    QCOMPARE(check.receipt->manifestSha256, Sha256::hexOf(readFile(root + "/bundle.json")));
    QCOMPARE(check.receipt->filesVerified, std::uint64_t(3));
    QCOMPARE(check.receipt->bytesVerified, std::uint64_t(traceText("run-1", 100).size() + 3 + 3));
    // Upper-case digests are accepted (eq_ignore_ascii_case), a trailing slash on the root too.
    const std::string digest = Sha256::hexOf("raw");
    std::string upper = digest;
    for (char &c : upper)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    replaceInManifest(root, digest, upper);
    const BundleCheck again = verifyBundle(root + "/");
    QVERIFY2(again.receipt, again.error.c_str());
}

void TestComparisonBundle::verification_data()
{
    QTest::addColumn<Tamper>("tamper");
    QTest::addColumn<QByteArray>("error"); // ROOT stands for the bundle's path

    QTest::newRow("not a directory") << Tamper([](const std::string &root) {
        QVERIFY(::system(("rm -r '" + root + "' && touch '" + root + "'").c_str()) == 0);
    }) << QByteArray("bundle directory does not exist: ROOT");
    QTest::newRow("manifest missing") << Tamper([](const std::string &root) {
        QCOMPARE(::unlink((root + "/bundle.json").c_str()), 0);
    }) << QByteArray("read bundle manifest ROOT/bundle.json: No such file or directory (os error 2)");
    QTest::newRow("manifest is a symlink") << Tamper([](const std::string &root) {
        QCOMPARE(::rename((root + "/bundle.json").c_str(), (root + "/../real.json").c_str()), 0);
        QCOMPARE(::symlink("../real.json", (root + "/bundle.json").c_str()), 0);
    }) << QByteArray("bundle manifest is not a regular file: ROOT/bundle.json");
    QTest::newRow("manifest not JSON")
        << Tamper([](const std::string &root) { QVERIFY(writeFile(root + "/bundle.json", "{\n  \"schema\": 1\n}\n")); })
        << QByteArray(
               "parse bundle manifest ROOT/bundle.json: invalid type: integer `1`, expected a string at line 2 column 13");
    QTest::newRow("wrong schema") << Tamper([](const std::string &root) {
        replaceInManifest(root, "candle-graph/bundle/1", "candle-graph/bundle/2");
    }) << QByteArray("unsupported bundle schema \"candle-graph/bundle/2\"; expected \"candle-graph/bundle/1\"");
    QTest::newRow("unsafe path") << Tamper([](const std::string &root) {
        replaceInManifest(root, "\"evidence.json\"", "\"../evidence.json\"");
    }) << QByteArray("unsafe or reserved bundle path \"../evidence.json\"");
    QTest::newRow("reserved path") << Tamper([](const std::string &root) {
        replaceInManifest(root, "\"evidence.json\"", "\"bundle.json\"");
    }) << QByteArray("unsafe or reserved bundle path \"bundle.json\"");
    QTest::newRow("declared twice") << Tamper([](const std::string &root) {
        replaceInManifest(root, "\"evidence.json\"", "\"trace.jsonl\"");
    }) << QByteArray("bundle manifest declares \"trace.jsonl\" more than once");
    QTest::newRow("invalid digest") << Tamper([](const std::string &root) {
        replaceInManifest(root, Sha256::hexOf("raw"), Sha256::hexOf("raw").substr(1));
    }) << QByteArray("bundle manifest has an invalid SHA-256 for \"nsight/capture.bin\"");
    QTest::newRow("undeclared file") << Tamper([](const std::string &root) {
        QVERIFY(writeFile(root + "/nsight/extra.txt", "x"));
    }) << QByteArray("undeclared regular file in bundle: nsight/extra.txt");
    QTest::newRow("undeclared nested bundle.json")
        << Tamper([](const std::string &root) { QVERIFY(writeFile(root + "/nsight/bundle.json", "{}")); })
        << QByteArray("undeclared regular file in bundle: nsight/bundle.json");
    QTest::newRow("missing file") << Tamper([](const std::string &root) {
        QCOMPARE(::unlink((root + "/evidence.json").c_str()), 0);
    }) << QByteArray("declared bundle file is missing: evidence.json");
    QTest::newRow("symlinked file") << Tamper([](const std::string &root) {
        QCOMPARE(::rename((root + "/evidence.json").c_str(), (root + "/../evidence.json").c_str()), 0);
        QCOMPARE(::symlink("../evidence.json", (root + "/evidence.json").c_str()), 0);
    }) << QByteArray("symbolic links are not allowed in bundles: ROOT/evidence.json");
    QTest::newRow("symlinked directory") << Tamper([](const std::string &root) {
        QVERIFY(
            ::system(
                ("mv '" + root + "/nsight' '" + root + "/../nsight' && ln -s ../nsight '" + root + "/nsight'").c_str())
            == 0);
    }) << QByteArray("symbolic links are not allowed in bundles: ROOT/nsight");
    QTest::newRow("special file") << Tamper([](const std::string &root) {
        QCOMPARE(::mkfifo((root + "/nsight/fifo").c_str(), 0600), 0);
    }) << QByteArray("special files are not allowed in bundles: ROOT/nsight/fifo");
    QTest::newRow("tampered content") << Tamper([](const std::string &root) {
        QVERIFY(writeFile(root + "/nsight/capture.bin", "RAW"));
    }) << QByteArray("bundle file \"nsight/capture.bin\" SHA-256 mismatch");
    QTest::newRow("resized content") << Tamper([](const std::string &root) {
        QVERIFY(writeFile(root + "/evidence.json", "{ }\n"));
    }) << QByteArray("bundle file \"evidence.json\" size mismatch: expected 3, observed 4");
    QTest::newRow("declared directory") << Tamper([](const std::string &root) {
        QVERIFY(::system(("rm '" + root + "/evidence.json' && mkdir '" + root + "/evidence.json'").c_str()) == 0);
    }) << QByteArray("declared bundle file is missing: evidence.json");
    QTest::newRow("first error in path order") << Tamper([](const std::string &root) {
        // Path order is by component: "a/z" comes before "a.txt" ('/' is not compared with '.').
        QCOMPARE(::mkdir((root + "/a").c_str(), 0777), 0);
        QVERIFY(writeFile(root + "/a/z", "1"));
        QVERIFY(writeFile(root + "/a.txt", "2"));
    }) << QByteArray("undeclared regular file in bundle: a/z");
}

void TestComparisonBundle::verification()
{
    QFETCH(Tamper, tamper);
    QFETCH(QByteArray, error);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string root = makeBundle(dir, "b");
    tamper(root);
    if (QTest::currentTestFailed())
        return;
    const BundleCheck check = verifyBundle(root);
    QVERIFY(!check.receipt);
    QCOMPARE(QByteArray::fromStdString(check.error), error.replace("ROOT", QByteArray::fromStdString(root)));
}

void TestComparisonBundle::safePaths_data()
{
    QTest::addColumn<QByteArray>("path");
    QTest::addColumn<bool>("safe");
    QTest::newRow("plain") << QByteArray("trace.jsonl") << true;
    QTest::newRow("nested") << QByteArray("nsight/a.bin") << true;
    QTest::newRow("inner dot") << QByteArray("nsight/./a.bin") << true;
    QTest::newRow("double slash") << QByteArray("nsight//a.bin") << true;
    QTest::newRow("trailing slash") << QByteArray("nsight/") << true;
    QTest::newRow("empty") << QByteArray("") << false;
    QTest::newRow("absolute") << QByteArray("/etc/passwd") << false;
    QTest::newRow("parent") << QByteArray("../x") << false;
    QTest::newRow("inner parent") << QByteArray("a/../x") << false;
    QTest::newRow("leading dot") << QByteArray("./x") << false;
    QTest::newRow("dot") << QByteArray(".") << false;
    QTest::newRow("backslash") << QByteArray("a\\b") << false;
}

void TestComparisonBundle::safePaths()
{
    QFETCH(QByteArray, path);
    QFETCH(bool, safe);
    QCOMPARE(isSafeBundlePath(path.toStdString()), safe);
}

void TestComparisonBundle::manifestParse_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QByteArray>("error"); // empty: parses
    QTest::newRow("object") << QByteArray(
        R"({"schema":"s","run_id":"r","files":[{"path":"p","bytes":1,"sha256":"h"}]})")
                            << QByteArray();
    QTest::newRow("unknown members ignored")
        << QByteArray(R"({"x":[1,{"y":null}],"schema":"s","run_id":"r","files":[]})") << QByteArray();
    QTest::newRow("array form") << QByteArray(R"(["s","r",[["p",1,"h"]]])") << QByteArray();
    QTest::newRow("missing field") << QByteArray("{\n  \"schema\": \"s\",\n  \"files\": []\n}")
                                   << QByteArray("missing field `run_id` at line 4 column 1");
    QTest::newRow("duplicate field") << QByteArray(R"({"schema":"s","schema":"t"})")
                                     << QByteArray("duplicate field `schema` at line 1 column 22");
    QTest::newRow("negative size") << QByteArray(
        R"({"schema":"s","run_id":"r","files":[{"path":"p","bytes":-1,"sha256":"h"}]})")
                                   << QByteArray("invalid value: integer `-1`, expected u64 at line 1 column 58");
    QTest::newRow("files not a list") << QByteArray(R"({"schema":"s","run_id":"r","files":{}})")
                                      << QByteArray("invalid type: map, expected a sequence at line 1 column 35");
    QTest::newRow("file not a struct")
        << QByteArray(R"({"schema":"s","run_id":"r","files":["p"]})")
        << QByteArray("invalid type: string \"p\", expected struct BundleFile at line 1 column 39");
    QTest::newRow("short array")
        << QByteArray(R"(["s","r"])")
        << QByteArray("invalid length 2, expected struct BundleManifest with 3 elements at line 1 column 9");
    QTest::newRow("trailing characters") << QByteArray("{\"schema\":\"s\",\"run_id\":\"r\",\"files\":[]}\n x")
                                         << QByteArray("trailing characters at line 2 column 2");
    QTest::newRow("invalid UTF-8") << QByteArray("{\"schema\":\"s\xff\"}")
                                   << QByteArray("invalid unicode code point at line 1 column 14");
    QTest::newRow("empty") << QByteArray("") << QByteArray("EOF while parsing a value at line 1 column 0");
    QTest::newRow("syntax") << QByteArray("{\n  \"schema\" \"s\"}") << QByteArray("expected `:` at line 2 column 12");
}

void TestComparisonBundle::manifestParse()
{
    QFETCH(QByteArray, json);
    QFETCH(QByteArray, error);
    std::string message;
    const std::optional<BundleManifest> m = BundleManifest::parse(json.toStdString(), message);
    QCOMPARE(QByteArray::fromStdString(message), error);
    QCOMPARE(m.has_value(), error.isEmpty());
    if (m) {
        QCOMPARE(m->schema, std::string("s"));
        QCOMPARE(m->runId, std::string("r"));
    }
}

void TestComparisonBundle::consumedFiles()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string root = makeBundle(dir, "b");
    const BundleCheck check = verifyBundle(root);
    QVERIFY(check.receipt);
    QCOMPARE(verifyConsumedBundleFiles(root, *check.receipt, {"trace.jsonl"}), std::string());
    // The trace replaced between verification and the post-read check.
    QVERIFY(writeFile(root + "/trace.jsonl", traceText("run-1", 999)));
    QCOMPARE(verifyConsumedBundleFiles(root, *check.receipt, {"trace.jsonl"}),
             std::string("bundle file \"trace.jsonl\" SHA-256 mismatch"));
    // The manifest rewritten to match.
    QVERIFY(writeFile(root + "/bundle.json", manifestFor("run-1", {{"trace.jsonl", traceText("run-1", 999)}})));
    QCOMPARE(verifyConsumedBundleFiles(root, *check.receipt, {"trace.jsonl"}),
             "bundle manifest changed after verification: " + root + "/bundle.json");
}

void TestComparisonBundle::loaderChains_data()
{
    QTest::addColumn<Tamper>("tamper"); // applied to the second candidate bundle
    QTest::addColumn<QByteArray>("error");
    QTest::newRow("all verified") << Tamper([](const std::string &) {}) << QByteArray();
    QTest::newRow("verification fails") << Tamper([](const std::string &root) {
        QVERIFY(writeFile(root + "/evidence.json", "{]\n")); // same size, other bytes
    }) << QByteArray("verify candidate bundle 2 at ROOT: bundle file \"evidence.json\" SHA-256 mismatch");
    QTest::newRow("trace rejected")
        << Tamper([](const std::string &root) {
               const std::string bad = "{\"kind\":\"meta\"}\n";
               QVERIFY(writeFile(root + "/trace.jsonl", bad));
               QVERIFY(writeFile(root + "/bundle.json", manifestFor("run-c2", {{"trace.jsonl", bad},
                                                                               {"evidence.json", "{}\n"},
                                                                               {"nsight/capture.bin", "raw"}})));
           })
        << QByteArray(
               "parse verified candidate bundle 2 trace at ROOT: parse trace JSONL line 1 from ROOT/trace.jsonl: "
               "missing field `schema`");
    QTest::newRow("trace missing")
        << Tamper([](const std::string &root) {
               QCOMPARE(::unlink((root + "/trace.jsonl").c_str()), 0);
               QVERIFY(writeFile(root + "/bundle.json",
                                 manifestFor("run-c2", {{"evidence.json", "{}\n"}, {"nsight/capture.bin", "raw"}})));
           })
        << QByteArray("parse verified candidate bundle 2 trace at ROOT: open trace file ROOT/trace.jsonl: "
                      "No such file or directory (os error 2)");
    QTest::newRow("run id mismatch") << Tamper([](const std::string &root) {
        replaceInManifest(root, "\"run_id\": \"run-c2\"", "\"run_id\": \"other\"");
    }) << QByteArray("verified candidate bundle 2 manifest run ID \"other\" does not match trace run ID \"run-c2\"");
}

void TestComparisonBundle::loaderChains()
{
    QFETCH(Tamper, tamper);
    QFETCH(QByteArray, error);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    std::vector<std::string> base, cand;
    for (int i = 1; i <= 2; ++i) {
        base.push_back(makeBundle(dir, "b" + std::to_string(i), "run-b" + std::to_string(i), 100));
        cand.push_back(makeBundle(dir, "c" + std::to_string(i), "run-c" + std::to_string(i), 90));
    }
    tamper(cand[1]);
    if (QTest::currentTestFailed())
        return;
    const CohortLoad load = loadCohorts(base, cand, false);
    QCOMPARE(QByteArray::fromStdString(load.error), error.replace("ROOT", QByteArray::fromStdString(cand[1])));
    if (!error.isEmpty())
        return;
    const ReplicatedComparison c = compareCohorts(load, false);
    QCOMPARE(c.inputs.verification, InputVerification::VerifiedBundles);
    QCOMPARE(c.inputs.candidate.size(), std::size_t(2));
    QCOMPARE(c.inputs.candidate[1].runId, std::string("run-c2"));
    QCOMPARE(c.inputs.candidate[1].manifestSha256, Sha256::hexOf(readFile(cand[1] + "/bundle.json")));
    QCOMPARE(c.baseline.samplesNs, (std::vector<std::uint64_t>{100, 100}));
    // Two runs a side, no identity: ineligible, with the count first among the cohort reasons.
    QCOMPARE(c.reasons.front(), std::string("at least 5 independent baseline and candidate runs are required"));
}

QTEST_APPLESS_MAIN(TestComparisonBundle)
#include "tst_comparisonbundle.moc"
