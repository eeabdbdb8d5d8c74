// SPDX-License-Identifier: MIT
#include "ui/compare/replicatedcomparedialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>
#include <string>
#include <vector>

#include "core/comparison/cohortloader.h"
#include "core/display/format.h"
#include "ui/compare/samplestripplot.h"
#include "core/loading/workerpool.h"

namespace TraceInspector {

namespace {

struct Outcome {
    std::optional<ReplicatedComparison> result;
    QString error;
};

std::vector<std::string> paths(const QStringList &list)
{
    std::vector<std::string> out;
    for (const QString &p : list)
        out.push_back(p.toStdString());
    return out;
}

QStringList items(const QListWidget *list)
{
    QStringList out;
    for (int i = 0; i < list->count(); ++i)
        out << list->item(i)->text();
    return out;
}

QString signedDuration(double ns)
{
    const QString sign = ns > 0 ? QStringLiteral("+") : ns < 0 ? QString(QChar(0x2212)) : QString();
    return sign + formatDuration(std::uint64_t(std::llround(std::fabs(ns))));
}

/// "1 run", "5 runs" (no translator is installed, so %n plurals would print "run(s)").
QString runsText(std::size_t n)
{
    return n == 1 ? ReplicatedCompareDialog::tr("1 run") : ReplicatedCompareDialog::tr("%L1 runs").arg(quint64(n));
}

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

} // namespace

ReplicatedCompareDialog::ReplicatedCompareDialog(QWidget *parent)
    : QDialog(parent)
    , m_baselineList(new QListWidget(this))
    , m_candidateList(new QListWidget(this))
    , m_raw(new QCheckBox(tr("Raw trace files (diagnostic only: never an eligible comparison)"), this))
    , m_compare(new QPushButton(tr("Compare"), this))
    , m_busy(new QLabel(this))
    , m_error(new QLabel(this))
    , m_verdict(new QLabel(this))
    , m_reasons(new QLabel(this))
    , m_statistics(new QLabel(this))
    , m_interval(new QLabel(this))
    , m_plot(new SampleStripPlot(this))
{
    setObjectName(QStringLiteral("replicatedCompareDialog"));
    setWindowTitle(tr("Compare Replicated Runs"));
    m_baselineList->setObjectName(QStringLiteral("replicatedBaselineInputs"));
    m_candidateList->setObjectName(QStringLiteral("replicatedCandidateInputs"));
    m_raw->setObjectName(QStringLiteral("replicatedRawTraces"));
    m_raw->setToolTip(tr("As upstream's --unverified-traces: each input is a trace file instead of a verified "
                         "evidence bundle directory"));
    m_compare->setObjectName(QStringLiteral("replicatedCompare"));
    m_error->setObjectName(QStringLiteral("replicatedError"));
    m_verdict->setObjectName(QStringLiteral("replicatedVerdict"));
    m_reasons->setObjectName(QStringLiteral("replicatedReasons"));
    m_statistics->setObjectName(QStringLiteral("replicatedStatistics"));
    m_interval->setObjectName(QStringLiteral("replicatedInterval"));
    for (QLabel *l : {m_error, m_reasons, m_statistics, m_interval, m_busy}) {
        l->setTextFormat(Qt::PlainText);
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_verdict->setTextFormat(Qt::PlainText);
    QFont big = m_verdict->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.2);
    m_verdict->setFont(big);
    m_error->hide();

    auto *inputs = new QHBoxLayout;
    inputs->addWidget(inputColumn(tr("Baseline runs"), m_baselineList));
    inputs->addWidget(inputColumn(tr("Candidate runs"), m_candidateList));
    auto *runRow = new QHBoxLayout;
    runRow->addWidget(m_raw, 1);
    runRow->addWidget(m_busy);
    runRow->addWidget(m_compare);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(inputs, 1);
    layout->addLayout(runRow);
    layout->addWidget(m_error);
    layout->addWidget(m_verdict);
    layout->addWidget(m_reasons);
    layout->addWidget(m_plot, 2);
    layout->addWidget(m_statistics);
    layout->addWidget(m_interval);
    layout->addWidget(close);

    connect(m_compare, &QPushButton::clicked, this, &ReplicatedCompareDialog::run);
    connect(m_raw, &QCheckBox::toggled, this, &ReplicatedCompareDialog::updateButtons);
    updateButtons();
    resize(820, 680);
}

ReplicatedCompareDialog::~ReplicatedCompareDialog() = default;

QWidget *ReplicatedCompareDialog::inputColumn(const QString &title, QListWidget *list)
{
    auto *box = new QWidget(this);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(title, box));
    list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    layout->addWidget(list, 1);
    auto *buttons = new QHBoxLayout;
    auto *addFiles = new QPushButton(tr("Add Trace Files…"), box);
    auto *addBundle = new QPushButton(tr("Add Bundle Folder…"), box);
    auto *remove = new QPushButton(tr("Remove"), box);
    buttons->addWidget(addFiles);
    buttons->addWidget(addBundle);
    buttons->addWidget(remove);
    layout->addLayout(buttons);
    connect(addFiles, &QPushButton::clicked, this, [this, list] {
        const QStringList files = QFileDialog::getOpenFileNames(this, tr("Add Trace Files"), QString(),
                                                                tr("Traces (*.jsonl);;All files (*)"));
        list->addItems(files);
        if (!files.isEmpty())
            m_raw->setChecked(true); // trace files are only accepted as raw, diagnostic inputs
        updateButtons();
    });
    connect(addBundle, &QPushButton::clicked, this, [this, list] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Add Evidence Bundle Folder"));
        if (!dir.isEmpty())
            list->addItem(dir);
        updateButtons();
    });
    connect(remove, &QPushButton::clicked, this, [this, list] {
        qDeleteAll(list->selectedItems());
        updateButtons();
    });
    return box;
}

void ReplicatedCompareDialog::setInputs(const QStringList &baseline, const QStringList &candidate, bool rawTraces)
{
    m_baselineList->clear();
    m_candidateList->clear();
    m_baselineList->addItems(baseline);
    m_candidateList->addItems(candidate);
    m_raw->setChecked(rawTraces);
    updateButtons();
}

QStringList ReplicatedCompareDialog::baselineInputs() const
{
    return items(m_baselineList);
}

QStringList ReplicatedCompareDialog::candidateInputs() const
{
    return items(m_candidateList);
}

void ReplicatedCompareDialog::updateButtons()
{
    m_compare->setEnabled(!m_running && m_baselineList->count() > 0 && m_candidateList->count() > 0);
}

void ReplicatedCompareDialog::run()
{
    if (m_baselineList->count() == 0 || m_candidateList->count() == 0)
        return;
    m_running = true;
    const quint64 generation = ++m_generation;
    updateButtons();
    m_busy->setText(tr("Reading and comparing…"));
    m_error->hide();
    auto *watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_generation)
            return;
        m_running = false;
        m_busy->clear();
        updateButtons();
        const Outcome outcome = watcher->result();
        if (outcome.result)
            showResult(*outcome.result);
        else
            showError(outcome.error);
        Q_EMIT finished(outcome.result.has_value());
    });
    const bool raw = m_raw->isChecked();
    watcher->setFuture(QtConcurrent::run(
        workerPool(), [baseline = paths(baselineInputs()), candidate = paths(candidateInputs()), raw] {
            Outcome outcome;
            const CohortLoad load = loadCohorts(baseline, candidate, raw);
            if (!load.ok())
                outcome.error = QString::fromStdString(load.error);
            else
                outcome.result = compareCohorts(load, raw);
            return outcome;
        }));
}

QString ReplicatedCompareDialog::verdictText(ComparisonVerdict verdict)
{
    switch (verdict) {
    case ComparisonVerdict::Ineligible: return tr("Ineligible: no verdict");
    case ComparisonVerdict::Inconclusive: return tr("Inconclusive: the interval includes no change");
    case ComparisonVerdict::CandidateFaster: return tr("Candidate faster");
    case ComparisonVerdict::CandidateSlower: return tr("Candidate slower");
    }
    return {};
}

QString ReplicatedCompareDialog::intervalText(const ReplicatedComparison &r)
{
    QString text = tr("Median delta (candidate − baseline): %1").arg(signedDuration(r.medianDeltaNs));
    if (r.medianDeltaPercent) {
        const double p = *r.medianDeltaPercent;
        const QString sign = p > 0 ? QStringLiteral("+") : p < 0 ? QString(QChar(0x2212)) : QString();
        text += tr(" (%1%2 %)").arg(sign).arg(std::fabs(p), 0, 'f', 2);
    }
    if (r.confidenceInterval) {
        text +=
            u'\n'
            + tr("%1 % interval of the median delta: [%2, %3] (%4 bootstrap, %5)")
                  .arg(r.confidenceInterval->level * 100, 0, 'f', 0)
                  .arg(signedDuration(r.confidenceInterval->lowerDeltaNs),
                       signedDuration(r.confidenceInterval->upperDeltaNs), r.paired ? tr("paired") : tr("unpaired"),
                       runsText(std::min(r.baseline.samplesNs.size(), r.candidate.samplesNs.size())) + tr(" per side"));
    } else {
        text += u'\n' + tr("No interval: the comparison is ineligible (see the reasons).");
    }
    return text;
}

void ReplicatedCompareDialog::showResult(const ReplicatedComparison &r)
{
    m_error->hide();
    m_verdict->setText(verdictText(r.verdict));
    QStringList reasons;
    for (const std::string &reason : r.reasons)
        reasons << QStringLiteral("• ") + qs(reason);
    m_reasons->setText(reasons.isEmpty() ? tr("Eligible: every upstream check passed.") : reasons.join(u'\n'));
    const auto side = [](const QString &name, const SampleStatistics &s, const std::optional<std::string> &id) {
        return tr("%1: %2, median %3, p95 %4, MAD %5%6")
            .arg(name, runsText(s.samplesNs.size()), formatDuration(std::uint64_t(std::llround(s.medianNs))),
                 formatDuration(std::uint64_t(std::llround(s.p95Ns))),
                 formatDuration(std::uint64_t(std::llround(s.madNs))),
                 id ? tr(" · implementation %1").arg(qs(*id)) : QString());
    };
    m_statistics->setText(side(tr("Baseline"), r.baseline, r.baselineImplementationId) + u'\n'
                          + side(tr("Candidate"), r.candidate, r.candidateImplementationId));
    m_interval->setText(intervalText(r));
    m_plot->setSamples(r.baseline, r.candidate);
}

void ReplicatedCompareDialog::showError(const QString &message)
{
    m_error->setText(tr("error: %1").arg(message));
    m_error->show();
    m_verdict->clear();
    m_reasons->clear();
    m_statistics->clear();
    m_interval->clear();
    m_plot->clear();
}

} // namespace TraceInspector
