// The compiled half of the Python module (python/podscope/__init__.py is the other): the public
// C++ API (podscope/podscope.hpp) with its results as Python dicts and lists, the JSON objects
// podscope-cli prints, and InputError as ValueError with the CLI's message.
#include <cmath>
#include <podscope/podscope.hpp>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <string>
#include <utility>

namespace py = pybind11;
using nlohmann::json;

namespace {

py::object toPython(const json& j) {
    switch (j.type()) {
    case json::value_t::null:
        return py::none();
    case json::value_t::boolean:
        return py::bool_(j.get<bool>());
    case json::value_t::number_integer:
        return py::int_(j.get<std::int64_t>());
    case json::value_t::number_unsigned:
        return py::int_(j.get<std::uint64_t>());
    case json::value_t::number_float: {
        // As the JSON text of podscope-cli has it: a non-finite number (a host input with no
        // cost: capacity inf) is written null.
        const double value = j.get<double>();
        return std::isfinite(value) ? py::object(py::float_(value)) : py::none();
    }
    case json::value_t::string:
        return py::str(j.get_ref<const std::string&>());
    case json::value_t::array: {
        py::list list;
        for (const auto& item : j) {
            list.append(toPython(item));
        }
        return list;
    }
    case json::value_t::object: {
        py::dict dict;
        for (const auto& [key, value] : j.items()) {
            dict[py::str(key)] = toPython(value);
        }
        return dict;
    }
    default:
        return py::none(); // binary and discarded values: never in the core's JSON
    }
}

// A setting's value as the API takes it: text, a number or a switch (None: not given).
json settingValue(const std::string& name, const py::handle& value) {
    if (value.is_none()) {
        return json();
    }
    if (py::isinstance<py::bool_>(value)) { // before int: bool is an int in Python
        return value.cast<bool>();
    }
    if (py::isinstance<py::int_>(value)) {
        return value.cast<std::int64_t>();
    }
    if (py::isinstance<py::float_>(value)) {
        return value.cast<double>();
    }
    if (py::isinstance<py::str>(value)) {
        return value.cast<std::string>();
    }
    throw podscope::InputError(name, "give text, a number or True/False, not " +
                                         std::string(py::str(value.get_type().attr("__name__"))));
}

podscope::api::ConfigurationRequest request(const std::string& preset, const std::string& config,
                                            const py::dict& settings) {
    podscope::api::ConfigurationRequest r{preset, config, {}};
    for (const auto& [key, value] : settings) {
        const auto name = key.cast<std::string>();
        r.settings.push_back({name, settingValue(name, value)});
    }
    return r;
}

// One dict per machine, as `podscope-cli compare --json` has them (None where unknown).
py::list compare(const std::string& preset, const std::string& config, const py::dict& settings) {
    const auto r = request(preset, config, settings);
    std::vector<podscope::api::MachineRow> rows;
    {
        const py::gil_scoped_release unlocked;
        rows = podscope::api::compareMachines(r);
    }
    py::list list;
    for (const auto& row : rows) {
        py::dict d;
        d["hardware"] = row.hardware;
        d["chips"] = row.chips;
        const bool sliced = !row.slice.empty();
        d["slices"] = sliced ? py::object(py::int_(row.slices)) : py::none();
        d["slice"] = sliced ? py::object(py::str(row.slice)) : py::none();
        d["global_batch"] = row.globalBatch;
        d["own"] = row.own;
        const bool ok = row.error.empty();
        const bool known = ok && row.timeToTrainKnown;
        d["step_time_s"] = ok ? py::object(py::float_(row.stepTimeS)) : py::none();
        d["time_to_train_s"] = known ? py::object(py::float_(row.timeToTrainS)) : py::none();
        d["chip_seconds"] = known ? py::object(py::float_(row.chipSeconds)) : py::none();
        d["error"] = ok ? py::object(py::none()) : py::object(py::str(row.error));
        list.append(d);
    }
    return list;
}

py::dict simulate(const std::string& preset, const std::string& config, const py::dict& settings) {
    const auto r = request(preset, config, settings);
    json result;
    {
        const py::gil_scoped_release unlocked;
        result = podscope::api::simulate(podscope::api::Configuration::load(r)).json;
    }
    return toPython(result);
}

py::dict configuration(const std::string& preset, const std::string& config,
                       const py::dict& settings) {
    return toPython(podscope::api::Configuration::load(request(preset, config, settings)).toJson());
}

// The rows as `podscope-cli sweep --csv` has them: one dict per point, by sweepColumns().
py::list sweep(const std::string& preset, const std::string& config, const py::dict& settings,
               const std::vector<std::int64_t>& chips,
               const std::vector<std::int64_t>& globalBatches) {
    const podscope::api::SweepRequest r{request(preset, config, settings), chips, globalBatches};
    std::vector<podscope::api::SweepRow> rows;
    {
        const py::gil_scoped_release unlocked;
        rows = podscope::api::sweep(r);
    }
    const auto keys = podscope::api::breakdownKeys();
    py::list list;
    for (const auto& row : rows) {
        py::dict d;
        d["chips"] = row.chips;
        d["global_batch"] = row.globalBatch;
        const bool ok = row.error.empty();
        const auto number = [ok](double v) { return ok ? py::object(py::float_(v)) : py::none(); };
        d["time_to_train_s"] = number(row.timeToTrainS);
        d["step_time_s"] = number(row.stepTimeS);
        d["throughput_examples_per_s"] = number(row.throughputExamplesPerS);
        d["steps"] = ok ? py::object(py::int_(row.steps)) : py::none();
        d["epochs"] = number(row.epochs);
        for (std::size_t i = 0; i < keys.size(); ++i) {
            d[py::str(keys[i])] = number(ok ? row.breakdownS[i] : 0.0);
        }
        d["bottleneck"] = ok ? py::object(py::str(row.bottleneck)) : py::none();
        d["required_examples_per_s_per_host"] = number(row.requiredExamplesPerSPerHost);
        d["capacity_examples_per_s_per_host"] = number(row.capacityExamplesPerSPerHost);
        d["extrapolated"] = ok ? py::object(py::bool_(row.extrapolated)) : py::none();
        d["hbm_bytes_per_core"] = number(row.hbmBytesPerCore);
        d["error"] = ok ? py::object(py::none()) : py::object(py::str(row.error));
        list.append(std::move(d));
    }
    return list;
}

py::dict layers(const std::string& preset, const std::string& config, const py::dict& settings) {
    const auto r = request(preset, config, settings);
    json result;
    {
        const py::gil_scoped_release unlocked;
        result = podscope::api::layers(podscope::api::Configuration::load(r)).json;
    }
    return toPython(result);
}

py::dict timeline(const std::string& preset, const std::string& config, const py::dict& settings,
                  const podscope::api::TimelineRequest& options) {
    const auto r = request(preset, config, settings);
    json result;
    {
        const py::gil_scoped_release unlocked;
        result = podscope::api::timeline(podscope::api::Configuration::load(r), options).json;
    }
    return toPython(result);
}

py::dict tune(const podscope::api::TuneRequest& r) {
    json result;
    {
        const py::gil_scoped_release unlocked;
        result = podscope::api::tune(r).json;
    }
    return toPython(result);
}

py::list settings() {
    py::list list;
    for (const auto& s : podscope::api::settings()) {
        py::dict d;
        d["key"] = s.key;
        d["flag"] = s.flag;
        d["type"] = s.type;
        d["unit"] = s.unit;
        d["accepted"] = s.accepted;
        d["default"] = s.defaultValue;
        d["description"] = s.description;
        d["help"] = s.help;
        d["example"] = s.example;
        list.append(std::move(d));
    }
    return list;
}

} // namespace

PYBIND11_MODULE(_podscope, m) {
    m.doc() = "PodScope's core (use the podscope package, which wraps this module)";
    py::register_exception_translator([](std::exception_ptr failure) {
        try {
            if (failure) {
                std::rethrow_exception(failure);
            }
        } catch (const podscope::InputError& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        }
    });

    py::class_<podscope::api::TimelineRequest>(m, "TimelineRequest")
        .def(py::init<>())
        .def_readwrite("slow_chip", &podscope::api::TimelineRequest::slowChip)
        .def_readwrite("slow_host", &podscope::api::TimelineRequest::slowHost)
        .def_readwrite("slow_factor", &podscope::api::TimelineRequest::slowFactor)
        .def_readwrite("host_jitter", &podscope::api::TimelineRequest::hostJitter)
        .def_readwrite("steps", &podscope::api::TimelineRequest::steps)
        .def_readwrite("seed", &podscope::api::TimelineRequest::seed)
        .def_readwrite("with_evaluation", &podscope::api::TimelineRequest::withEvaluation)
        .def_readwrite("contention", &podscope::api::TimelineRequest::contention);
    py::class_<podscope::api::TuneRequest>(m, "TuneRequest")
        .def(py::init<>())
        .def_readwrite("model", &podscope::api::TuneRequest::model)
        .def_readwrite("preset", &podscope::api::TuneRequest::preset)
        .def_readwrite("framework", &podscope::api::TuneRequest::framework)
        .def_readwrite("chips", &podscope::api::TuneRequest::chips)
        .def_readwrite("objective", &podscope::api::TuneRequest::objective)
        .def_readwrite("goal", &podscope::api::TuneRequest::goal)
        .def_readwrite("fidelity", &podscope::api::TuneRequest::fidelity)
        .def_readwrite("pareto", &podscope::api::TuneRequest::pareto)
        .def_readwrite("top", &podscope::api::TuneRequest::top)
        .def_readwrite("fixes", &podscope::api::TuneRequest::fixes)
        .def_readwrite("allow_extrapolation", &podscope::api::TuneRequest::allowExtrapolation)
        .def_readwrite("threads", &podscope::api::TuneRequest::threads)
        .def_readwrite("settings", &podscope::api::TuneRequest::settings);

    m.def("presets", &podscope::api::presetNames);
    m.def("settings", &settings);
    m.def("sweep_columns", &podscope::api::sweepColumns);
    m.def("configuration", &configuration);
    m.def("simulate", &simulate);
    m.def("sweep", &sweep);
    m.def("compare", &compare);
    m.def("layers", &layers);
    m.def("timeline", &timeline);
    m.def("tune", &tune);
}
