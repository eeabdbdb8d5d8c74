// SPDX-License-Identifier: MIT
// Linked into every test executable: the tests see the texts a user sees, so the English
// plural forms ("1 op", "2 ops") are installed as the application installs them.
#include <QCoreApplication>

#include "core/display/translations.h"

namespace {

void installTranslations()
{
    TraceInspector::Translations::install(*QCoreApplication::instance());
}

} // namespace

Q_COREAPP_STARTUP_FUNCTION(installTranslations)
