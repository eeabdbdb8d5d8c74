<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="en">
<context>
    <name>RawLine</name>
    <message numerus="yes">
        <source>the file has only %n line(s)</source>
        <translation>
            <numerusform>the file has only %n line</numerusform>
            <numerusform>the file has only %n lines</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceInspector::ComparePanel</name>
    <message numerus="yes">
        <source>The runs differ in %n thing(s) that make a comparison fair</source>
        <translation>
            <numerusform>The runs differ in %n thing that makes a comparison fair</numerusform>
            <numerusform>The runs differ in %n things that make a comparison fair</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> (%Ln by semantic label)</source>
        <translation>
            <numerusform> (%Ln by semantic label)</numerusform><numerusform> (%Ln by semantic label)</numerusform></translation>
    </message>
</context>
<context>
    <name>TraceInspector::ExportController</name>
    <message numerus="yes">
        <source>%n line(s) of the trace could not be decoded; a normalized file would silently leave them out, so it is not written.</source>
        <translation>
            <numerusform>%n line of the trace could not be decoded; a normalized file would silently leave it out, so it is not written.</numerusform>
            <numerusform>%n lines of the trace could not be decoded; a normalized file would silently leave them out, so it is not written.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceInspector::GradientHistogram</name>
    <message numerus="yes">
        <source>%n key(s) with a positive norm</source>
        <translation>
            <numerusform>%n key with a positive norm</numerusform>
            <numerusform>%n keys with a positive norm</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceInspector::GradientKeyModel</name>
    <message numerus="yes">
        <source>%1 (+%n more)</source>
        <translation>
            <numerusform>%1 (+%n more)</numerusform>
            <numerusform>%1 (+%n more)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceInspector::GradientsPanel</name>
    <message numerus="yes">
        <source>%n zero</source>
        <translation>
            <numerusform>%n zero</numerusform>
            <numerusform>%n zero</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n missing</source>
        <translation>
            <numerusform>%n missing</numerusform>
            <numerusform>%n missing</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n non-finite</source>
        <translation>
            <numerusform>%n non-finite</numerusform>
            <numerusform>%n non-finite</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n not captured</source>
        <translation>
            <numerusform>%n not captured</numerusform>
            <numerusform>%n not captured</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Manifest of %n key(s): digest matches (%1).</source>
        <translation>
            <numerusform>Manifest of %n key: digest matches (%1).</numerusform>
            <numerusform>Manifest of %n keys: digest matches (%1).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Manifest of %n key(s): digest MISMATCH — declared %1, computed %2.</source>
        <translation>
            <numerusform>Manifest of %n key: digest MISMATCH — declared %1, computed %2.</numerusform>
            <numerusform>Manifest of %n keys: digest MISMATCH — declared %1, computed %2.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> — %n finding(s)</source>
        <translation>
            <numerusform> — %n finding</numerusform>
            <numerusform> — %n findings</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>first record on line %1 (%n record(s))</source>
        <translation>
            <numerusform>first record on line %1 (%n record)</numerusform>
            <numerusform>first record on line %1 (%n records)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 key(s)</source>
        <translation>
            <numerusform>%1 key</numerusform>
            <numerusform>%1 keys</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %2 key(s)</source>
        <translation>
            <numerusform>%1 of %2 key</numerusform>
            <numerusform>%1 of %2 keys</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceInspector::MainWindow</name>
    <message numerus="yes">
        <source>%1 op(s)</source>
        <translation>
            <numerusform>%1 op</numerusform>
            <numerusform>%1 ops</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 span(s)</source>
        <translation>
            <numerusform>%1 span</numerusform>
            <numerusform>%1 spans</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 error(s)</source>
        <translation>
            <numerusform>%1 error</numerusform>
            <numerusform>%1 errors</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 warning(s)</source>
        <translation>
            <numerusform>%1 warning</numerusform>
            <numerusform>%1 warnings</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceInspector::MetadataModel</name>
    <message numerus="yes">
        <source>%n label(s)</source>
        <translation>
            <numerusform>%n label</numerusform>
            <numerusform>%n labels</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n gradient(s)</source>
        <translation>
            <numerusform>%n gradient</numerusform>
            <numerusform>%n gradients</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n family(ies)</source>
        <translation>
            <numerusform>%n family</numerusform>
            <numerusform>%n families</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tag(s)</source>
        <translation>
            <numerusform>%n tag</numerusform>
            <numerusform>%n tags</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceInspector::OpAggregateModel</name>
    <message numerus="yes">
        <source>%1: %2 op(s), %3 ns in total</source>
        <translation>
            <numerusform>%1: %2 op, %3 ns in total</numerusform>
            <numerusform>%1: %2 ops, %3 ns in total</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceInspector::OpTablePanel</name>
    <message numerus="yes">
        <source>%1 op(s)</source>
        <translation>
            <numerusform>%1 op</numerusform>
            <numerusform>%1 ops</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %2 op(s)</source>
        <translation>
            <numerusform>%1 of %2 op</numerusform>
            <numerusform>%1 of %2 ops</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceInspector::RowExportJob</name>
    <message numerus="yes">
        <source>%1 row(s)</source>
        <translation>
            <numerusform>%1 row</numerusform>
            <numerusform>%1 rows</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceInspector::SearchBar</name>
    <message numerus="yes">
        <source>%1 match(es)</source>
        <translation>
            <numerusform>%1 match</numerusform>
            <numerusform>%1 matches</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceInspector::SpanTreePanel</name>
    <message numerus="yes">
        <source>%1 of %2 span(s) in the time range</source>
        <translation>
            <numerusform>%1 of %2 span in the time range</numerusform>
            <numerusform>%1 of %2 spans in the time range</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 span(s)</source>
        <translation>
            <numerusform>%1 span</numerusform>
            <numerusform>%1 spans</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %2 span(s) match</source>
        <translation>
            <numerusform>%1 of %2 span match</numerusform>
            <numerusform>%1 of %2 spans match</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>expanding: %n row(s)…</source>
        <translation>
            <numerusform>expanding: %n row…</numerusform>
            <numerusform>expanding: %n rows…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>expanded to %n row(s); Expand All Below (*) on a row goes deeper</source>
        <translation>
            <numerusform>expanded to %n row; Expand All Below (*) on a row goes deeper</numerusform>
            <numerusform>expanded to %n rows; Expand All Below (*) on a row goes deeper</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceInspector::TableActions</name>
    <message numerus="yes">
        <source>%1… %2 row(s)</source>
        <translation>
            <numerusform>%1… %2 row</numerusform>
            <numerusform>%1… %2 rows</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceInspector::TensorStatsPanel</name>
    <message numerus="yes">
        <source>, %n flagged</source>
        <translation>
            <numerusform>, %n flagged</numerusform>
            <numerusform>, %n flagged</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 record(s)</source>
        <translation>
            <numerusform>%1 record</numerusform>
            <numerusform>%1 records</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %2 record(s)</source>
        <translation>
            <numerusform>%1 of %2 record</numerusform>
            <numerusform>%1 of %2 records</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceInspector::TensorsPanel</name>
    <message numerus="yes">
        <source>%1 tensor(s)</source>
        <translation>
            <numerusform>%1 tensor</numerusform>
            <numerusform>%1 tensors</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %2 tensor(s)</source>
        <translation>
            <numerusform>%1 of %2 tensor</numerusform>
            <numerusform>%1 of %2 tensors</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceInspector::ValidationGroupModel</name>
    <message numerus="yes">
        <source>%1 finding(s)</source>
        <translation>
            <numerusform>%1 finding</numerusform>
            <numerusform>%1 findings</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n finding(s) shown, first on line %2</source>
        <translation>
            <numerusform>%1: %n finding shown, first on line %2</numerusform>
            <numerusform>%1: %n findings shown, first on line %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceInspector::ValidationPanel</name>
    <message numerus="yes">
        <source>%1 error(s)</source>
        <translation>
            <numerusform>%1 error</numerusform>
            <numerusform>%1 errors</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 warning(s)</source>
        <translation>
            <numerusform>%1 warning</numerusform>
            <numerusform>%1 warnings</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceInspector::ViewCoverageText</name>
    <message numerus="yes">
        <source>%1: %2 record(s)</source>
        <translation>
            <numerusform>%1: %2 record</numerusform>
            <numerusform>%1: %2 records</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceSniffer</name>
    <message numerus="yes">
        <source>no trace record found in its first %n line(s)</source>
        <translation>
            <numerusform>no trace record found in its first %n line</numerusform>
            <numerusform>no trace record found in its first %n lines</numerusform>
        </translation>
    </message>
</context>
</TS>