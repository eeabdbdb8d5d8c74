# SPDX-License-Identifier: MIT
# `cmake --build --preset release --target package` makes
#   candle-trace-inspector_<version>_<arch>.deb   (installs under /usr)
#   candle-trace-inspector-<version>-Linux.tar.gz (the same tree, relocatable: bin/, share/)
# from the install rules. The .deb's dependencies are computed with dpkg-shlibdeps (dpkg-dev).
# Installing the .deb needs no maintainer scripts: the files under /usr/share/mime/packages,
# /usr/share/applications, /usr/share/icons/hicolor and /usr/share/man activate the dpkg
# triggers of shared-mime-info, desktop-file-utils, the icon cache and man-db, which refresh
# their databases (tests/packaging/check_deb.sh checks that).
# TI_PACKAGE_HOMEPAGE and TI_PACKAGE_MAINTAINER are set in packaging/CMakeLists.txt.
set(CPACK_PACKAGE_NAME "candle-trace-inspector")
set(CPACK_PACKAGE_VENDOR "candle-graph")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT ${TI_PACKAGE_MAINTAINER})
set(CPACK_PACKAGE_HOMEPAGE_URL ${TI_PACKAGE_HOMEPAGE})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "viewer and checker for candle-graph execution traces")
set(CPACK_PACKAGE_DESCRIPTION
    "Candle Trace Inspector opens the JSON Lines execution traces written by candle's profiler (candle-graph/trace/10 and trace/9): span tree with self time, op table and per-op statistics, memory over time with the allocations live at the peak, and every decode error, rule violation and health finding with its line.\n\nThe package holds the desktop application candle-trace-inspector, which opens trace files on double-click, and the command-line tool candle-trace, which checks, normalizes and summarizes traces with upstream's rules and messages.")
set(CPACK_PACKAGE_CHECKSUM SHA256)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_SOURCE_GENERATOR "")
set(CPACK_PACKAGE_FILE_NAME "${CPACK_PACKAGE_NAME}-${CPACK_PACKAGE_VERSION}-${CMAKE_SYSTEM_NAME}")

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${TI_PACKAGE_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE ${TI_PACKAGE_HOMEPAGE})
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# Not seen by dpkg-shlibdeps: Qt's platform plugins load at run time (X11's is in libqt6gui6,
# Wayland's in qt6-wayland), and double-click needs the MIME and desktop databases, which the
# triggers of shared-mime-info and desktop-file-utils keep.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-wayland, shared-mime-info, desktop-file-utils")

include(CPack)
