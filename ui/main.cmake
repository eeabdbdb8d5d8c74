# SPDX-License-Identifier: MIT
# The main window, its own panels and widgets, and the bundled resources.
target_sources(tinspect_ui PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/exportcontroller.h
    ${CMAKE_CURRENT_LIST_DIR}/exportcontroller.cpp
    ${CMAKE_CURRENT_LIST_DIR}/mainwindow.h
    ${CMAKE_CURRENT_LIST_DIR}/mainwindow.cpp
    ${CMAKE_CURRENT_LIST_DIR}/metadatapanel.h
    ${CMAKE_CURRENT_LIST_DIR}/metadatapanel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/recentfiles.h
    ${CMAKE_CURRENT_LIST_DIR}/recentfiles.cpp
    ${CMAKE_CURRENT_LIST_DIR}/validationpanel.h
    ${CMAKE_CURRENT_LIST_DIR}/validationpanel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/style/appicon.h
    ${CMAKE_CURRENT_LIST_DIR}/style/appicon.cpp
    ${CMAKE_CURRENT_LIST_DIR}/style/severitypalette.h
    ${CMAKE_CURRENT_LIST_DIR}/style/severitypalette.cpp
    ${CMAKE_CURRENT_LIST_DIR}/style/severitydelegate.h
    ${CMAKE_CURRENT_LIST_DIR}/style/severitydelegate.cpp
    ${CMAKE_CURRENT_LIST_DIR}/widgets/loadprogresswidget.h
    ${CMAKE_CURRENT_LIST_DIR}/widgets/loadprogresswidget.cpp
    ${CMAKE_CURRENT_LIST_DIR}/widgets/messagebanner.h
    ${CMAKE_CURRENT_LIST_DIR}/widgets/messagebanner.cpp
    ${CMAKE_CURRENT_LIST_DIR}/widgets/startpage.h
    ${CMAKE_CURRENT_LIST_DIR}/widgets/startpage.cpp
    ${CMAKE_CURRENT_LIST_DIR}/widgets/rowexportjob.h
    ${CMAKE_CURRENT_LIST_DIR}/widgets/rowexportjob.cpp
    ${CMAKE_CURRENT_LIST_DIR}/widgets/tableactions.h
    ${CMAKE_CURRENT_LIST_DIR}/widgets/tableactions.cpp
    ${CMAKE_CURRENT_LIST_DIR}/widgets/formatreferencewindow.h
    ${CMAKE_CURRENT_LIST_DIR}/widgets/formatreferencewindow.cpp
    ${CMAKE_CURRENT_LIST_DIR}/widgets/shortcutsdialog.h
    ${CMAKE_CURRENT_LIST_DIR}/widgets/shortcutsdialog.cpp
    ${CMAKE_CURRENT_LIST_DIR}/style/palettes.h
    ${CMAKE_CURRENT_LIST_DIR}/style/palettes.cpp
)
# The window icon: the hicolor PNGs that are installed for the desktop too.
file(GLOB _ti_icon_pngs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/resources/icons/hicolor/*/apps/*.png)
qt_add_resources(tinspect_ui "inspector_resources"
    PREFIX "/"
    BASE ${PROJECT_SOURCE_DIR}/resources
    FILES
        ${PROJECT_SOURCE_DIR}/resources/sample-trace.jsonl
        ${_ti_icon_pngs}
)
# The format's authority, shown by Help > Format Reference.
qt_add_resources(tinspect_ui "format_reference"
    PREFIX "/docs"
    BASE ${PROJECT_SOURCE_DIR}/docs
    FILES ${PROJECT_SOURCE_DIR}/docs/TRACE_FORMAT.md
)
