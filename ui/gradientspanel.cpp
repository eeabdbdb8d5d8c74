// SPDX-License-Identifier: MIT
#include "ui/gradientspanel.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "core/analysis/evidenceanalysis.h"
#include "core/display/format.h"
#include "core/analysis/health.h"
#include "core/itemmodels/gradientkeymodel.h"
#include "core/model/trace.h"
#include "ui/gradienthistogram.h"
#include "ui/style/severitydelegate.h"
#include "ui/widgets/filterlineedit.h"
#include "ui/widgets/scrollpage.h"
#include "ui/widgets/tableactions.h"

namespace TraceInspector {

namespace {

QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

} // namespace

GradientsPanel::GradientsPanel(QWidget *parent)
    : EvidenceTablePanel(InspectorView::Gradients, new GradientKeyModel, parent)
    , m_model(static_cast<GradientKeyModel *>(model()))
    , m_contract(new QLabel(this))
    , m_histogram(new GradientHistogram(this))
    , m_detail(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("gradientsPanel"));
    filterEdit()->setPlaceholderText(tr("Filter by root, key, family or state"));
    m_contract->setObjectName(QStringLiteral("gradientContract"));
    m_contract->setTextFormat(Qt::PlainText);
    m_contract->setWordWrap(true);
    m_contract->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail->setObjectName(QStringLiteral("gradientDetail"));
    m_detail->setReadOnly(true);
    m_detail->setPlaceholderText(tr("Select a parameter key to see its findings"));
    using Fit = TableActions::ColumnFit;
    actions()->setColumnFits({Fit{GradientKeyModel::RootColumn, 4, 16}, Fit{GradientKeyModel::KeyColumn, 10, 40},
                              Fit{GradientKeyModel::StateColumn, 6, 12}, Fit{GradientKeyModel::NormColumn, 6, 12},
                              Fit{GradientKeyModel::FamilyColumn, 6, 16},
                              Fit{GradientKeyModel::ExpectationColumn, 6, 16},
                              Fit{GradientKeyModel::RecordsColumn, 4, 8}, Fit{GradientKeyModel::FindingsColumn, 8, 40}},
                             GradientKeyModel::KeyColumn);
    view()->setItemDelegateForColumn(GradientKeyModel::FindingsColumn, new SeverityDelegate(view()));

    auto *lower = new QSplitter(Qt::Horizontal, this);
    lower->addWidget(m_histogram);
    lower->addWidget(m_detail);
    lower->setStretchFactor(0, 3);
    lower->setStretchFactor(1, 2);
    auto *split = new QSplitter(Qt::Vertical, this);
    panelLayout()->removeWidget(view());
    split->addWidget(view());
    split->addWidget(lower);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    panelLayout()->insertWidget(1, m_contract);
    // The table over the histogram needs ~160 px: in a shorter panel they scroll as a page
    // rather than raise the window's least height past a 768-pixel screen's.
    panelLayout()->addWidget(scrollPage(split, this), 1);

    connect(this, &EvidenceTablePanel::recordSelected, this, &GradientsPanel::showDetail);
    connect(this, &EvidenceTablePanel::recordSelected, this, [this](qint64 record) {
        const GradientKeyEvidence *k = record >= 0 ? m_model->keyAt(std::size_t(record)) : nullptr;
        if (!m_showing && k && k->firstRecord != UINT32_MAX)
            Q_EMIT gradientSelected(qint64(k->firstRecord));
    });
    updateStatus();
}

GradientsPanel::~GradientsPanel() = default;

QString GradientsPanel::contractText() const
{
    return m_contract->text();
}

QString GradientsPanel::detailText() const
{
    return m_detail->toPlainText();
}

void GradientsPanel::setLoadedTrace(LoadedTracePtr loaded)
{
    m_trace = loaded ? loaded->trace : nullptr;
    const void *evidence = loaded ? loaded->evidence.get() : nullptr;
    if (evidence != m_shownEvidence) {
        m_shownEvidence = evidence;
        m_model->setEvidence(loaded ? loaded->trace : nullptr, loaded ? loaded->evidence : nullptr,
                             loaded ? loaded->health : nullptr);
        std::vector<double> norms;
        QString unplaced;
        if (loaded && loaded->evidence) {
            const GradientEvidence &g = loaded->evidence->gradients;
            for (const GradientKeyEvidence &k : g.keys) {
                if (k.state == GradientState::Present && k.norm)
                    norms.push_back(*k.norm);
            }
            QStringList parts;
            if (const auto n = g.countInState(GradientState::Zero))
                parts << tr("%n zero", nullptr, int(n));
            if (const auto n = g.countInState(GradientState::Missing))
                parts << tr("%n missing", nullptr, int(n));
            if (const auto n = g.countInState(GradientState::NonFinite))
                parts << tr("%n non-finite", nullptr, int(n));
            if (const auto n = g.notCapturedCount())
                parts << tr("%n not captured", nullptr, int(n));
            unplaced = parts.join(QStringLiteral(", "));
        }
        m_histogram->setNorms(std::move(norms), unplaced);
        m_detail->clear();
    }
    updateContract(loaded);
    updateBadge(loaded);
    updateStatus();
}

void GradientsPanel::clear()
{
    m_trace.reset();
    m_shownEvidence = nullptr;
    m_model->setEvidence(nullptr, nullptr, nullptr);
    m_histogram->clear();
    m_detail->clear();
    updateContract(nullptr);
    updateBadge(nullptr);
    updateStatus();
}

void GradientsPanel::showGradient(qint64 gradient)
{
    const GradientEvidence *evidence = m_model->evidence() ? &m_model->evidence()->gradients : nullptr;
    if (!evidence || !m_trace || gradient < 0 || std::size_t(gradient) >= m_trace->gradients.size())
        return;
    // Keys are few (one per parameter): a scan by (root, key) finds the record's key, also
    // for a repeated record of a key whose first record is another.
    const Gradient &g = m_trace->gradients[std::size_t(gradient)];
    const std::string_view root = m_trace->str(g.root);
    const std::string_view key = m_trace->str(g.key);
    for (std::size_t i = 0; i < evidence->keys.size(); ++i) {
        if (evidence->keys[i].root == root && evidence->keys[i].key == key) {
            if (currentRecord() != qint64(i)) {
                m_showing = true;
                selectRecord(qint64(i));
                m_showing = false;
            }
            return;
        }
    }
}

void GradientsPanel::updateContract(const LoadedTracePtr &loaded)
{
    if (!loaded || !loaded->evidence) {
        m_contract->setText(loaded && loaded->trace ? tr("Gradient evidence is computed after the health check…")
                                                    : QString());
        return;
    }
    const GradientEvidence &g = loaded->evidence->gradients;
    QStringList lines;
    if (!g.declared) {
        lines << tr("No meta record: the run's gradient contract is unknown.");
    } else {
        QString head = tr("Declared gradient coverage: %1.").arg(qs(coverageLevelName(*g.declared)));
        if (!g.hasContract)
            head += u' ' + tr("No gradient contract (manifest).");
        lines << head;
    }
    if (g.digest) {
        std::size_t manifest = 0;
        for (const GradientKeyEvidence &k : g.keys)
            manifest += k.inManifest;
        lines << (g.digest->matches()
                      ? tr("Manifest of %n key(s): digest matches (%1).", nullptr, int(manifest))
                            .arg(qs(g.digest->declared))
                      : tr("Manifest of %n key(s): digest MISMATCH — declared %1, computed %2.", nullptr, int(manifest))
                            .arg(qs(g.digest->declared), qs(g.digest->computed)));
        QStringList families;
        for (const GradientFamilyEvidence &f : g.families) {
            families << tr("%1 (%2, min %3): %4 of %5 captured, %6 present%7")
                            .arg(qs(f.family), qs(familyExpectationName(f.expectation)), QString::number(f.minPresent),
                                 QString::number(f.observed), QString::number(f.members), QString::number(f.present),
                                 f.findings.empty() ? QString()
                                                    : tr(" — %n finding(s)", nullptr, int(f.findings.size())));
        }
        if (!families.isEmpty())
            lines << tr("Families: %1").arg(families.join(QStringLiteral("; ")));
    }
    if (!g.contractFindings.empty() && loaded->health) {
        for (const std::uint32_t f : g.contractFindings) {
            const Problem &p = loaded->health->findings[f];
            lines << QStringLiteral("%1 [%2] %3").arg(qs(severityName(p.severity)), qs(p.code), qs(p.message));
        }
    }
    lines << tr("Keys: %1 present, %2 zero, %3 missing, %4 non-finite, %5 not captured.")
                 .arg(g.countInState(GradientState::Present))
                 .arg(g.countInState(GradientState::Zero))
                 .arg(g.countInState(GradientState::Missing))
                 .arg(g.countInState(GradientState::NonFinite))
                 .arg(g.notCapturedCount());
    m_contract->setText(lines.join(u'\n'));
}

void GradientsPanel::showDetail(qint64 record)
{
    const GradientKeyEvidence *k = record >= 0 ? m_model->keyAt(std::size_t(record)) : nullptr;
    if (!k) {
        m_detail->clear();
        return;
    }
    QStringList lines;
    lines << tr("(%1, %2): %3").arg(qs(k->root), qs(k->key), GradientKeyModel::stateText(*k));
    if (k->norm)
        lines << tr("norm %1").arg(QString::number(*k->norm, 'g', 17));
    if (k->line > 0)
        lines << tr("first record on line %1 (%n record(s))", nullptr, int(k->recordCount)).arg(k->line);
    if (k->inManifest)
        lines << tr("family %1%2")
                     .arg(qs(k->family),
                          k->expectation ? tr(" (%1)").arg(qs(familyExpectationName(*k->expectation))) : QString());
    else if (m_model->evidence() && m_model->evidence()->gradients.hasContract)
        lines << tr("not in the gradient manifest");
    const QStringList findings = m_model->findingTexts(std::size_t(record));
    lines << (findings.isEmpty() ? tr("No findings.") : tr("Findings:"));
    lines << findings;
    m_detail->setPlainText(lines.join(u'\n'));
}

QString GradientsPanel::countText(int shown, std::size_t total) const
{
    if (std::size_t(shown) == total)
        return tr("%1 key(s)", nullptr, shown).arg(formatCount(std::uint64_t(shown)));
    return tr("%1 of %2 key(s)", nullptr, numerusCount(total))
        .arg(formatCount(std::uint64_t(shown)), formatCount(total));
}

} // namespace TraceInspector
