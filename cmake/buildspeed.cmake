# SPDX-License-Identifier: MIT
# Build-time levers for the CI presets (ci, dev-asan, fuzz), where a fresh machine builds
# everything three times on 2 cores without a compiler cache. Both are off by default: the dev
# preset stays an ordinary build (ccache-friendly, and without a precompiled header that would
# hide a missing #include).
#
# TI_LINKER   -fuse-ld=<name> for every link (lld in the CI presets). The ~120 test
#             executables each link the libraries statically; GNU ld spends seconds on each.
# TI_PCH      precompiled headers: the Qt and standard headers every file of a library repeats,
#             and one header per test kind (core, ui) built once and reused by every test
#             executable of that kind (REUSE_FROM: all tests share their compile flags).
# TI_TEST_CXX_FLAGS  extra flags for the test executables' own sources (ti_add_test; all of
#             them alike, so they still share one precompiled header). The ci preset gives -O1:
#             the libraries under test stay -O3, while -O3 on the ~80 test files cost ~27%
#             more compile time (tst_normalizedwriter: 15.9 CPU s against 11.7) for test code
#             that runs the same. Not -O0: under ASan it made tst_memoryseries and
#             tst_fastpath run ~1.5-2x longer for no compile gain.
option(TI_PCH "Precompiled headers for the libraries and the tests (CI presets)" OFF)
set(TI_TEST_CXX_FLAGS "" CACHE STRING "Extra compile flags for the test executables (-O1 in the ci preset)")
set(TI_LINKER "" CACHE STRING "Linker for -fuse-ld= (lld in the CI presets); empty: the compiler's default")

if(TI_LINKER)
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=${TI_LINKER}" TI_HAVE_LINKER_${TI_LINKER})
  if(TI_HAVE_LINKER_${TI_LINKER})
    add_link_options(-fuse-ld=${TI_LINKER})
  else()
    message(WARNING "TI_LINKER=${TI_LINKER}: the compiler cannot link with it; using its default linker "
                    "(scripts/install-deps.sh installs lld)")
  endif()
endif()

set(_ti_pch_std <algorithm> <array> <cmath> <cstdint> <cstring> <functional> <map> <memory> <optional>
    <string> <string_view> <unordered_map> <utility> <vector>)

# Called once every library and test target exists (top-level CMakeLists.txt).
function(ti_apply_precompiled_headers)
  if(NOT TI_PCH)
    return()
  endif()
  target_precompile_headers(tinspect_engine PRIVATE ${_ti_pch_std})
  target_precompile_headers(tinspect_adapters PRIVATE ${_ti_pch_std} <QAbstractItemModel> <QAbstractTableModel>
                            <QCoreApplication> <QHash> <QLocale> <QObject> <QPointer> <QString> <QStringList>)
  if(TARGET tinspect_ui)
    target_precompile_headers(tinspect_ui PRIVATE ${_ti_pch_std} <QAction> <QApplication> <QElapsedTimer>
                              <QFileInfo> <QFutureWatcher> <QHBoxLayout> <QHeaderView> <QLabel> <QPainter>
                              <QSplitter> <QTableView> <QTimer> <QToolButton> <QTreeView> <QVBoxLayout> <QWidget>
                              <QtConcurrent/QtConcurrentRun>)
  endif()
endfunction()

# For ti_add_test (tests/CMakeLists.txt): the first test of a kind builds the header, the
# others reuse it. A test whose flags differed would only lose the speed-up: GCC and clang
# ignore a precompiled header they cannot use (-Winvalid-pch says so).
function(ti_test_precompiled_header name kind)
  if(NOT TI_PCH)
    return()
  endif()
  # A test's moc output is included by its own .cpp (tst_x.moc), so AUTOMOC's
  # mocs_compilation.cpp is empty; with the header it cost ~2 s (~3 s under ASan) per test of
  # only loading the ~180 MB .gch.
  set_source_files_properties(${CMAKE_CURRENT_BINARY_DIR}/${name}_autogen/mocs_compilation.cpp
                              PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
  get_property(_host GLOBAL PROPERTY TI_TEST_PCH_${kind})
  if(_host)
    target_precompile_headers(${name} REUSE_FROM ${_host})
    return()
  endif()
  set_property(GLOBAL PROPERTY TI_TEST_PCH_${kind} ${name})
  set(_headers ${_ti_pch_std} <random> <QAbstractItemModelTester> <QDir> <QElapsedTimer> <QFile> <QFileInfo>
      <QSignalSpy> <QSortFilterProxyModel> <QTemporaryDir> <QTest>)
  if(kind STREQUAL "ui")
    list(APPEND _headers <QApplication> <QHeaderView> <QLabel> <QLineEdit> <QPushButton> <QTableView> <QTreeView>)
  endif()
  target_precompile_headers(${name} PRIVATE ${_headers})
endfunction()
