// SPDX-License-Identifier: MIT
#pragma once

#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QMetaEnum>

#include <cstdio>

#include "tests/bench/benchclock.h"

// Names the event behind a long pass of the event loop: a benchmark that sees a pass over
// its limit needs to know which receiver and which event to make cheaper. Times every
// delivery the loop makes itself (depth 0) and, inside the slowest one, its slowest nested
// delivery (a slot's sendEvent, a child's paint), on the GUI thread only.
class SlowEventApplication : public QApplication
{
public:
    using QApplication::QApplication;

    struct Delivery {
        double wallMs = 0;
        double cpuMs = 0;
        QByteArray receiver;
        int type = 0;
    };

    void reset()
    {
        m_slowest = {};
        m_slowestNested = {};
    }

    void print(const char *indent) const
    {
        std::printf("%s  the slowest delivery: %s, %.1f ms (GUI CPU %.1f ms); inside it %s, %.1f ms (CPU %.1f ms)\n",
                    indent, describe(m_slowest).constData(), m_slowest.wallMs, m_slowest.cpuMs,
                    describe(m_slowestNested).constData(), m_slowestNested.wallMs, m_slowestNested.cpuMs);
        std::fflush(stdout);
    }

    bool notify(QObject *receiver, QEvent *event) override
    {
        if (!receiver || receiver->thread() != thread())
            return QApplication::notify(receiver, event);
        const int depth = m_depth++;
        QElapsedTimer clock;
        clock.start();
        const double cpu0 = BenchClock::threadCpuMs();
        const int type = event->type(); // the event may be gone after delivery
        // Names only, kept cheaply: the receiver may be gone after the delivery. A watcher or
        // timer says little by itself, so its parent's class comes along.
        const char *cls = receiver->metaObject()->className();
        const char *parentCls = receiver->parent() ? receiver->parent()->metaObject()->className() : nullptr;
        const QString objectName = receiver->objectName();
        if (depth == 0)
            m_nestedInThis = {};
        const bool result = QApplication::notify(receiver, event);
        const double wallMs = BenchClock::msSince(clock);
        const double cpuMs = BenchClock::threadCpuMs() - cpu0;
        --m_depth;
        if (depth == 1 && wallMs > m_nestedInThis.wallMs)
            m_nestedInThis = {wallMs, cpuMs, label(cls, parentCls, objectName), type};
        if (depth == 0 && wallMs > m_slowest.wallMs) {
            m_slowest = {wallMs, cpuMs, label(cls, parentCls, objectName), type};
            m_slowestNested = m_nestedInThis;
        }
        return result;
    }

private:
    static QByteArray label(const char *className, const char *parentClassName, const QString &objectName)
    {
        QByteArray s = className;
        if (!objectName.isEmpty())
            s += " \"" + objectName.toUtf8() + '"';
        if (parentClassName)
            s += QByteArray(" in ") + parentClassName;
        return s;
    }

    static QByteArray describe(const Delivery &d)
    {
        if (d.receiver.isEmpty())
            return "none";
        const char *type = QMetaEnum::fromType<QEvent::Type>().valueToKey(d.type);
        return d.receiver + " / " + (type ? QByteArray(type) : QByteArray::number(d.type));
    }

    int m_depth = 0;
    Delivery m_slowest;
    Delivery m_slowestNested;
    Delivery m_nestedInThis;
};
