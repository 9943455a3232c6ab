// Issue 22: podscope-cli and podscope take the same scenario flags, from the settings table.
// Walks the table: each setting's example gives the same configuration in both programs, each
// bad value exits 2 from both with the same message, and both --help texts carry each flag's
// generated line. Also podscope's --config and --model-parallel, as podscope-cli's.
#include "CliRunner.hpp"
#include "GuiOptions.hpp"
#include "ScenarioOptions.hpp"
#include "common/InputError.hpp"
#include "settings/ScenarioSettings.hpp"
#include "settings/SettingValue.hpp"
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"
#include "training/StepModel.hpp"

#include <CLI/CLI.hpp>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace podscope;

namespace {

constexpr const char* kPreset = "mlperf07-resnet50-tf-4096";

QString qt(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// podscope-cli's scenario for `simulate ARGS`, as its options resolve it (without simulating).
Scenario cliScenario(std::vector<std::string> args) {
    CLI::App app;
    cli::ScenarioChoice choice;
    cli::addScenarioChoiceOptions(app, choice);
    args.insert(args.begin(), "simulate");
    std::vector<char*> argv;
    for (auto& a : args) {
        argv.push_back(a.data());
    }
    app.parse(static_cast<int>(argv.size()), argv.data());
    return cli::resolveScenario(choice);
}

Scenario guiScenario(const QStringList& args) {
    return gui::parseOptions(QStringList{"podscope"} + args).scenario;
}

struct Outcome {
    int exitCode = -1;
    QString err;
};

Outcome runProgram(const QString& program, const QStringList& args) {
    QProcess process;
    process.start(program, args);
    Outcome outcome;
    if (process.waitForFinished(60000)) {
        outcome.exitCode = process.exitCode();
        outcome.err = QString::fromUtf8(process.readAllStandardError());
    }
    return outcome;
}

// The message after "podscope(-cli): error: ".
QString messageOf(const QString& err) {
    const auto at = err.indexOf("error: ");
    return at < 0 ? err : err.mid(at + 7).trimmed();
}

// Values each type refuses: not a value of the type, and just beyond the range.
QStringList badValues(const Setting& s) {
    switch (s.type) {
    case SettingType::Integer:
        return {"x", "1.5", qt(formatSettingNumber(s.highest + 1)),
                qt(formatSettingNumber(s.lowest - 1))};
    case SettingType::Number:
        return {"x", "nan", qt(formatSettingNumber(s.highest * 2))};
    case SettingType::Switch:
        return {"maybe"};
    case SettingType::Choice:
        return {"no-such-choice"};
    case SettingType::Text:
        return {"%"};
    }
    return {};
}

QString collapsed(QString text) {
    return text.replace(QRegularExpression("\\s+"), " ");
}

} // namespace

class SettingFlagsTest : public QObject {
    Q_OBJECT

private slots:
    void eachExampleGivesTheSameConfigurationInBothPrograms() {
        int flags = 0;
        for (const Setting& s : scenarioSettings()) {
            if (s.flag.empty()) {
                continue;
            }
            ++flags;
            const std::string flag = "--" + std::string(s.flag);
            const std::string example(s.example);
            const Scenario cli = cliScenario({"--preset", kPreset, flag, example});
            const Scenario gui = guiScenario({"--preset", kPreset, qt(flag), qt(example)});
            QVERIFY2(toJson(cli) == toJson(gui), qPrintable(qt(s.key)));
            QVERIFY2(toJson(gui) != toJson(loadPreset(kPreset).scenario) ||
                         (s.choices && s.choices().size() == 1),
                     qPrintable(qt(s.key) + " had no effect"));
        }
        QVERIFY(flags >= 25);
    }

    // A model given alone opens in the app as podscope-cli reads it (the table's standalone
    // values), not on the default preset's framework and machine.
    void aModelGivenAloneGivesTheSameConfigurationInBothPrograms() {
        const std::string model =
            std::string(PODSCOPE_SOURCE_DIR) + "/tests/data/onnx/vit_b_16.onnx";
        const Scenario cli =
            cliScenario({"--workload", model, "--chips", "256", "--global-batch", "4096"});
        const Scenario gui =
            guiScenario({"--workload", qt(model), "--chips", "256", "--global-batch", "4096"});
        QVERIFY2(toJson(cli) == toJson(gui), qPrintable(qt(toJson(gui).dump())));
        QCOMPARE(qt(gui.framework), qt(std::string(findSetting("framework")->standalone)));
        // With a preset, the preset's settings stay (here its framework).
        const Scenario withPreset = guiScenario({"--preset", kPreset, "--workload", qt(model)});
        QCOMPARE(qt(withPreset.framework), qt(loadPreset(kPreset).scenario.framework));
    }

    void eachBadValueExitsTwoFromBothWithTheSameMessage() {
        for (const Setting& s : scenarioSettings()) {
            if (s.flag.empty()) {
                continue;
            }
            for (const QString& bad : badValues(s)) {
                const QString option = "--" + qt(s.flag) + "=" + bad;
                const Outcome cli =
                    runProgram(PODSCOPE_CLI_PROGRAM, {"simulate", "--preset", kPreset, option});
                const Outcome gui = runProgram(PODSCOPE_GUI_PROGRAM, {"--preset", kPreset, option});
                const QString what = option + ": " + cli.err + " / " + gui.err;
                QVERIFY2(cli.exitCode == 2 && gui.exitCode == 2, qPrintable(what));
                QVERIFY2(messageOf(cli.err) == messageOf(gui.err), qPrintable(what));
                QVERIFY2(messageOf(cli.err).startsWith(qt(s.flag) + ": "), qPrintable(what));
            }
        }
    }

    void bothHelpTextsCarryEachFlagsLine() {
        const auto cliHelp = cli::test::runCli({"simulate", "--help"});
        QCOMPARE(cliHelp.status, 0);
        QProcess gui;
        gui.start(PODSCOPE_GUI_PROGRAM, {"--help"});
        QVERIFY(gui.waitForFinished(60000));
        const QString guiHelp = collapsed(QString::fromUtf8(gui.readAllStandardOutput()));
        const QString cliText = collapsed(QString::fromStdString(cliHelp.out));
        for (const Setting& s : scenarioSettings()) {
            if (s.flag.empty()) {
                continue;
            }
            const QString line = collapsed(QString::fromStdString(settingHelp(s)));
            for (const QString& help : {cliText, guiHelp}) {
                QVERIFY2(help.contains("--" + qt(s.flag) + " "), qPrintable(qt(s.flag)));
                QVERIFY2(help.contains(line), qPrintable(line));
            }
        }
    }

    // --config, as podscope-cli's: the file's configuration, then the flags over it.
    void theAppOpensAConfigurationFile() {
        QTemporaryDir dir;
        const QString path = dir.filePath("mine.json");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"preset": "mlperf07-bert-jax-4096", "gradient": {"chunks": 8}})");
        file.close();
        const std::string file8 = path.toStdString();
        const Scenario gui = guiScenario({"--config", path, "--wus", "off"});
        QVERIFY(toJson(gui) == toJson(cliScenario({"--config", file8, "--wus", "off"})));
        QCOMPARE(gui.gradient.chunks, 8);
        QCOMPARE(gui.workload, std::string("bert"));
        QVERIFY(!gui.weightUpdateSharding);
        try {
            guiScenario({"--config", path, "--preset", kPreset});
            QFAIL("accepted");
        } catch (const InputError& e) {
            QCOMPARE(QString(e.what()),
                     QString("preset: give either --preset or --config, not both"));
        }
        const Outcome missing =
            runProgram(PODSCOPE_GUI_PROGRAM, {"--config", dir.filePath("none.json")});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(messageOf(missing.err).startsWith("config: "), qPrintable(missing.err));
    }

    // The default preset is data parallel: a degree alone takes the workload's split.
    void modelParallelAloneTakesTheWorkloadsSplit() {
        const Scenario gui = guiScenario({"--model-parallel", "4"});
        QCOMPARE(gui.modelParallel, 4);
        QVERIFY(gui.modelParallelKind != ModelParallelKind::None);
        QVERIFY(loadWorkload(gui.workload).supports(gui.modelParallelKind));
        simulateTraining(gui); // accepted: no "needs a kind"
        QVERIFY(toJson(gui) == toJson(cliScenario({"--preset", kPreset, "--model-parallel", "4"})));
    }
};

QTEST_GUILESS_MAIN(SettingFlagsTest)
#include "SettingFlagsTest.moc"
