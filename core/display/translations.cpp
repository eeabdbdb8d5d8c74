// SPDX-License-Identifier: MIT
#include "core/display/translations.h"

#include <QCoreApplication>
#include <QDir>
#include <QTranslator>

namespace TraceInspector {
namespace {

const QString kResourceDir = QStringLiteral(":/i18n");
const QString kPrefix = QStringLiteral("candle-trace-inspector_");

} // namespace

QString Translations::install(QCoreApplication &app, const QLocale &locale)
{
    // Owned by the application: a translator must outlive every tr() call.
    auto *translator = new QTranslator(&app);
    if (translator->load(locale, QStringLiteral("candle-trace-inspector"), QStringLiteral("_"), kResourceDir)
        || translator->load(kPrefix + QStringLiteral("en"), kResourceDir)) {
        app.installTranslator(translator);
        return translator->language().section(u'_', 0, 0);
    }
    delete translator;
    return {};
}

QStringList Translations::available()
{
    QStringList languages;
    const QStringList files = QDir(kResourceDir).entryList({kPrefix + QStringLiteral("*.qm")}, QDir::Files, QDir::Name);
    for (const QString &file : files)
        languages << file.mid(kPrefix.size()).chopped(3);
    return languages;
}

} // namespace TraceInspector
