// SPDX-License-Identifier: MIT
#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include "core/display/translations.h"

using namespace TraceInspector;

/// The English catalogue: installed, complete (every plural of the sources has two finished
/// forms without "(s)"), and up to date with the sources (lupdate finds no plural it lacks).
class TestTranslations : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void englishIsInstalled();
    void pluralsPickTheForm_data();
    void pluralsPickTheForm();
    void everyPluralIsFinished();
    void catalogueMatchesTheSources();

private:
    struct Plural {
        QString context;
        QString source;
        QStringList forms;
        bool finished = false;
    };
    static QList<Plural> readCatalogue(const QString &path);
};

namespace {

const QString kCatalogue = QStringLiteral(TI_SOURCE_DIR "/translations/candle-trace-inspector_en.ts");
const QRegularExpression kMarker(QStringLiteral("\\((s|es|ies)\\)"));

} // namespace

QList<TestTranslations::Plural> TestTranslations::readCatalogue(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QList<Plural> plurals;
    QXmlStreamReader xml(&file);
    QString context;
    while (!xml.atEnd()) {
        if (!xml.readNextStartElement())
            continue;
        if (xml.name() == QLatin1StringView("name")) {
            context = xml.readElementText();
        } else if (xml.name() == QLatin1StringView("message")) {
            const bool numerus = xml.attributes().value(QLatin1StringView("numerus")) == QLatin1StringView("yes");
            Plural p;
            p.context = context;
            while (xml.readNextStartElement()) {
                if (xml.name() == QLatin1StringView("source")) {
                    p.source = xml.readElementText();
                } else if (xml.name() == QLatin1StringView("translation")) {
                    const auto type = xml.attributes().value(QLatin1StringView("type"));
                    p.finished = type.isEmpty();
                    while (xml.readNextStartElement())
                        p.forms << xml.readElementText();
                } else {
                    xml.skipCurrentElement();
                }
            }
            if (numerus)
                plurals << p;
        }
    }
    return plurals;
}

void TestTranslations::englishIsInstalled()
{
    // tests/testutils/testenvironment.cpp installed it at start-up, as the application does.
    QVERIFY(Translations::available().contains(QStringLiteral("en")));
    QCOMPARE(Translations::install(*QCoreApplication::instance(), QLocale(QLocale::German)), QStringLiteral("en"));
}

void TestTranslations::pluralsPickTheForm_data()
{
    QTest::addColumn<QString>("context");
    QTest::addColumn<QString>("source");
    QTest::addColumn<int>("n");
    QTest::addColumn<QString>("expected");
    QTest::newRow("one op") << "TraceInspector::MainWindow"
                            << "%1 op(s)" << 1 << "%1 op";
    QTest::newRow("no ops") << "TraceInspector::MainWindow"
                            << "%1 op(s)" << 0 << "%1 ops";
    QTest::newRow("two ops") << "TraceInspector::MainWindow"
                             << "%1 op(s)" << 2 << "%1 ops";
    QTest::newRow("one line") << "RawLine"
                              << "the file has only %n line(s)" << 1 << "the file has only 1 line";
    QTest::newRow("lines") << "RawLine"
                           << "the file has only %n line(s)" << 7 << "the file has only 7 lines";
    QTest::newRow("families") << "TraceInspector::MetadataModel"
                              << "%n family(ies)" << 3 << "3 families";
    QTest::newRow("family") << "TraceInspector::MetadataModel"
                            << "%n family(ies)" << 1 << "1 family";
}

void TestTranslations::pluralsPickTheForm()
{
    QFETCH(QString, context);
    QFETCH(QString, source);
    QFETCH(int, n);
    QFETCH(QString, expected);
    QCOMPARE(QCoreApplication::translate(context.toUtf8().constData(), source.toUtf8().constData(), nullptr, n),
             expected);
}

void TestTranslations::everyPluralIsFinished()
{
    const QList<Plural> plurals = readCatalogue(kCatalogue);
    QVERIFY2(plurals.size() >= 40, qPrintable(QStringLiteral("%1 plurals in %2").arg(plurals.size()).arg(kCatalogue)));
    for (const Plural &p : plurals) {
        const QString where = p.context + QStringLiteral(": ") + p.source;
        QVERIFY2(p.finished, qPrintable(where + QStringLiteral(" is unfinished (tools/fill_english_plurals.py)")));
        QCOMPARE(p.forms.size(), 2);
        for (const QString &form : p.forms)
            QVERIFY2(!form.contains(kMarker), qPrintable(where + QStringLiteral(" keeps a (s) marker")));
        // What the application shows is what the catalogue says.
        const QByteArray context = p.context.toUtf8();
        const QByteArray source = p.source.toUtf8();
        QString one = p.forms.at(0);
        QString many = p.forms.at(1);
        // %n and its localised %Ln both read 1 and 2 in any locale.
        for (const QString &placeholder : {QStringLiteral("%Ln"), QStringLiteral("%n")}) {
            one.replace(placeholder, QStringLiteral("1"));
            many.replace(placeholder, QStringLiteral("2"));
        }
        QCOMPARE(QCoreApplication::translate(context.constData(), source.constData(), nullptr, 1), one);
        QCOMPARE(QCoreApplication::translate(context.constData(), source.constData(), nullptr, 2), many);
    }
}

void TestTranslations::catalogueMatchesTheSources()
{
#ifndef TI_LUPDATE
    QSKIP("lupdate was not found at configure time");
#else
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fresh = dir.filePath(QStringLiteral("fresh_en.ts"));
    QVERIFY(QFile::copy(kCatalogue, fresh));
    QFile::setPermissions(fresh, QFile::ReadOwner | QFile::WriteOwner);
    QProcess lupdate;
    lupdate.setWorkingDirectory(QStringLiteral(TI_SOURCE_DIR));
    lupdate.start(QStringLiteral(TI_LUPDATE),
                  {QStringLiteral("-I"), QStringLiteral("."), QStringLiteral("-pluralonly"),
                   QStringLiteral("-locations"), QStringLiteral("none"), QStringLiteral("-no-obsolete"),
                   QStringLiteral("-silent"), QStringLiteral("ui"), QStringLiteral("core/loading"),
                   QStringLiteral("core/itemmodels"), QStringLiteral("core/display"), QStringLiteral("app/gui"),
                   QStringLiteral("-ts"), fresh});
    QVERIFY2(lupdate.waitForFinished(120000), qPrintable(lupdate.errorString()));
    QCOMPARE(lupdate.exitCode(), 0);
    const auto key = [](const Plural &p) -> QString { return p.context + u'\x1f' + p.source; };
    QStringList committed;
    for (const Plural &p : readCatalogue(kCatalogue))
        committed << key(p);
    QStringList current;
    for (const Plural &p : readCatalogue(fresh)) {
        current << key(p);
        QVERIFY2(p.finished, qPrintable(QStringLiteral("new plural %1: %2 — run the update_translations target, then "
                                                       "tools/fill_english_plurals.py")
                                            .arg(p.context, p.source)));
    }
    committed.sort();
    current.sort();
    QCOMPARE(current, committed);
#endif
}

QTEST_GUILESS_MAIN(TestTranslations)
#include "tst_translations.moc"
