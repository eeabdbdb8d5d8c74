// SPDX-License-Identifier: MIT
#pragma once

#include <QLocale>
#include <QString>

class QCoreApplication;

namespace TraceInspector {

/// The application's translations, built from translations/*.ts by lrelease and embedded
/// under :/i18n.
///
/// The source texts are English with "(s)" plurals ("%n line(s)"): the English catalogue
/// holds their numerus forms, so it is installed whenever no catalogue matches the locale.
/// Otherwise a German desktop would read "1 line(s)".
class Translations
{
public:
    /// Installs the catalogue for \a locale (or English) into \a app; returns the language
    /// that was installed, e.g. "en", or an empty string when none could be loaded.
    static QString install(QCoreApplication &app, const QLocale &locale = QLocale());
    /// The languages that are embedded, e.g. {"en"}.
    static QStringList available();
};

} // namespace TraceInspector
