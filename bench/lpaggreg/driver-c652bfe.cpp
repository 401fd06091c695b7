// A driver for lpaggreg at commit c652bfe, the version the original Ocelotl pinned, for
// bench/lpaggreg.sh (issue 28): it reads the model CSV that script writes (and, for the
// spatiotemporal mode, its tree CSV), fills lpaggreg's wrappers the way the original Ocelotl's JNI
// classes did (JNITimeAggregation3: OLPAggregWrapper(3), a matrix per slice, a vector per producer,
// a value per type; JNISpaceTimeAggregation2: DLPAggregWrapper(2), newRoot/newNode/newLeaf, a
// vector per slice, a value per type), computes the qualities unnormalised (computeQualities(false),
// as ours are raw) and runs the bisection over p to 0.001 (computeDichotomy(0.001)), then prints
// "N partitions" (the distinct (gain, loss) pairs the bisection kept) and, on the same line (the
// script keeps only that line), the CPU seconds of each step. lpaggreg (LGPL-3.0) is not part of
// this repository, so this file sits in a folder of its own: BenchScriptsTest compiles every
// program directly under bench/, and this one needs the library. Build it beside the repository:
//
//   git clone https://github.com/dosimont/lpaggreg && git -C lpaggreg checkout c652bfe
//   mkdir O2 && cd O2 && for f in ../lpaggreg/src/*.cpp; do g++ -std=c++11 -O2 -w -c "$f"; done
//   ar rcs liblpaggreg.a *.o
//   g++ -std=c++11 -O2 -I../lpaggreg/src PATH/TO/bench/lpaggreg/driver-c652bfe.cpp liblpaggreg.a -o driver-O2
//
//   driver-O2 temporal model.csv
//   driver-O2 spatiotemporal model.csv tree.csv
//
// The model CSV is "producer,slice,type,value" with a header line; the tree CSV "producer,parent"
// with a header line, the root's parent empty, every parent listed before its children, and the
// model's producers its leaves.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <string>
#include <vector>

#include "DLPAggregWrapper.h"
#include "OLPAggregWrapper.h"

namespace {

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "driver-c652bfe: %s\n", message.c_str());
  std::exit(2);
}

double cpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// What a run found, and the CPU seconds of its two steps.
struct Result {
  int partitions;
  double qualities, search;
};

template <typename Wrapper>
Result aggregate(Wrapper& wrapper) {
  double start = cpuSeconds();
  wrapper.computeQualities(false);
  double qualities = cpuSeconds();
  wrapper.computeDichotomy(0.001f);
  return {wrapper.getParameterNumber(), qualities - start, cpuSeconds() - qualities};
}

// Splits a line of at most `count` comma-separated fields in place (no quoting: bench/lpaggreg.sh
// writes none).
int split(char* line, char** fields, int count) {
  line[std::strcspn(line, "\r\n")] = '\0';
  int n = 0;
  fields[n++] = line;
  for (char* c = line; *c != '\0' && n < count; c++) {
    if (*c == ',') {
      *c = '\0';
      fields[n++] = c + 1;
    }
  }
  return n;
}

// The model as values[producer][slice][type], producers and types numbered in order of appearance.
struct Model {
  std::vector<std::string> producers;
  std::map<std::string, int> producerIndex;
  std::map<std::string, int> typeIndex;
  int slices = 0;
  std::vector<std::vector<std::vector<double> > > values;
};

Model readModel(const char* path) {
  FILE* in = std::fopen(path, "r");
  if (in == nullptr) fail(std::string("cannot read ") + path);
  struct Cell { int producer, slice, type; double value; };
  std::vector<Cell> cells;
  Model model;
  char line[4096];
  char* fields[4];
  long number = 0;
  while (std::fgets(line, sizeof line, in) != nullptr) {
    if (++number == 1) continue;  // the header
    if (split(line, fields, 4) != 4) fail(std::string(path) + ": line " + std::to_string(number) + " has not 4 fields");
    auto producer = model.producerIndex.emplace(fields[0], static_cast<int>(model.producers.size()));
    if (producer.second) model.producers.push_back(fields[0]);
    auto type = model.typeIndex.emplace(fields[2], static_cast<int>(model.typeIndex.size()));
    int slice = std::atoi(fields[1]);
    if (slice < 0) fail(std::string(path) + ": line " + std::to_string(number) + ": negative slice");
    if (slice + 1 > model.slices) model.slices = slice + 1;
    cells.push_back({producer.first->second, slice, type.first->second, std::strtod(fields[3], nullptr)});
  }
  std::fclose(in);
  if (cells.empty()) fail(std::string(path) + ": no values");
  model.values.assign(model.producers.size(), std::vector<std::vector<double> >(
      model.slices, std::vector<double>(model.typeIndex.size(), 0.0)));
  for (const Cell& c : cells) model.values[c.producer][c.slice][c.type] += c.value;
  return model;
}

Result temporal(const Model& model) {
  OLPAggregWrapper wrapper(3);
  for (int s = 0; s < model.slices; s++) {
    wrapper.addMatrix();
    for (size_t p = 0; p < model.producers.size(); p++) {
      wrapper.addVector();
      for (double v : model.values[p][s]) wrapper.push_back(v);
    }
  }
  return aggregate(wrapper);
}

Result spatiotemporal(const Model& model, const char* treePath) {
  FILE* in = std::fopen(treePath, "r");
  if (in == nullptr) fail(std::string("cannot read ") + treePath);
  std::vector<std::pair<std::string, std::string> > edges;  // (producer, parent) in file order
  std::map<std::string, int> children;
  char line[4096];
  char* fields[2];
  long number = 0;
  while (std::fgets(line, sizeof line, in) != nullptr) {
    if (++number == 1) continue;
    if (split(line, fields, 2) != 2) fail(std::string(treePath) + ": line " + std::to_string(number) + " has not 2 fields");
    edges.emplace_back(fields[0], fields[1]);
    if (fields[1][0] != '\0') children[fields[1]]++;
  }
  std::fclose(in);
  DLPAggregWrapper wrapper(2);
  std::map<std::string, int> ids;
  size_t leaves = 0;
  for (const auto& edge : edges) {
    int id = static_cast<int>(ids.size());
    if (!ids.emplace(edge.first, id).second) fail(std::string(treePath) + ": " + edge.first + " listed twice");
    if (edge.second.empty()) {
      wrapper.newRoot(id);
      continue;
    }
    auto parent = ids.find(edge.second);
    if (parent == ids.end()) fail(std::string(treePath) + ": " + edge.second + " is used before it is listed");
    if (children.count(edge.first) > 0) {
      wrapper.newNode(id, parent->second);
      continue;
    }
    auto producer = model.producerIndex.find(edge.first);
    if (producer == model.producerIndex.end()) fail(std::string(treePath) + ": leaf " + edge.first + " has no values in the model");
    wrapper.newLeaf(id, parent->second);
    for (const std::vector<double>& slice : model.values[producer->second]) {
      wrapper.addVector(id);
      for (double v : slice) wrapper.push_back(id, v);
    }
    leaves++;
  }
  if (leaves != model.producers.size()) fail("the model has producers that are not leaves of the tree");
  wrapper.validate();
  return aggregate(wrapper);
}

}  // namespace

int main(int argc, char** argv) {
  bool isTemporal = argc == 3 && std::strcmp(argv[1], "temporal") == 0;
  bool isSpatiotemporal = argc == 4 && std::strcmp(argv[1], "spatiotemporal") == 0;
  if (!isTemporal && !isSpatiotemporal) fail("usage: temporal MODEL.csv | spatiotemporal MODEL.csv TREE.csv");
  Model model = readModel(argv[2]);
  double read = cpuSeconds();
  Result result = isTemporal ? temporal(model) : spatiotemporal(model, argv[3]);
  std::printf("%d partitions (CPU: reading %.2f s, qualities %.2f s, search %.2f s)\n", result.partitions, read,
              result.qualities, result.search);
  return 0;
}
