// SPDX-License-Identifier: MIT
// Prints the MIME type Qt's QMimeDatabase gives each file (one per line), the way KDE's file
// manager and Qt file dialogs type them: a second opinion beside gio for the packaging test.
#include <QCoreApplication>
#include <QMimeDatabase>

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList files = QCoreApplication::arguments().mid(1);
    if (files.isEmpty()) {
        std::fprintf(stderr, "usage: ti_mimetypeof FILE...\n");
        return 2;
    }
    const QMimeDatabase db;
    for (const QString &file : files)
        std::printf("%s\n", qPrintable(db.mimeTypeForFile(file).name()));
    return std::fflush(stdout) == 0 ? 0 : 1;
}
