package dev.continuum.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * docs/architecture.md's module diagram against the poms: every dependency one Continuum module's pom declares on
 * another (compile, runtime or provided scope; test-only dependencies are not drawn) is an arrow in the diagram —
 * solid for compile and runtime, dotted for provided — and the diagram draws no arrow that no pom declares. Reads
 * the root pom's module list and each module's pom from the repository root, so it needs nothing built.
 */
class ArchitectureDiagramTest {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Path ARCHITECTURE = REPO.resolve("docs/architecture.md");
    private static final String GROUP = "dev.continuum";
    /** {@code id["label"]}: a node whose label is the module's folder, optionally followed by " (what it is)". */
    private static final Pattern LABELLED = Pattern.compile("(\\w+)\\[\"([^\"]+)\"\\]");
    /** {@code a --> b & c} (compile) or {@code a -.-> b & c} (provided). */
    private static final Pattern EDGE = Pattern.compile("^\\s*(\\w+)\\s+(-->|-\\.->)\\s+(.+)$");

    private static List<String> modules;
    private static Set<String> declared;
    private static Set<String> drawn;

    @BeforeAll
    static void read() throws Exception {
        modules = modulesOfRootPom();
        declared = declaredDependencies(modules);
        drawn = diagramEdges(modules);
    }

    @Test
    void shouldDrawEveryModuleDependencyWhenAPomDeclaresIt() {
        Set<String> missing = new TreeSet<>(declared);
        missing.removeAll(drawn);
        assertThat(missing)
                .as("dependencies the poms declare that docs/architecture.md's diagram does not draw"
                        + " (A --> B compile, A -.-> B provided)")
                .isEmpty();
    }

    @Test
    void shouldDrawNoArrowWhenNoPomDeclaresIt() {
        Set<String> extra = new TreeSet<>(drawn);
        extra.removeAll(declared);
        assertThat(extra).as("arrows in docs/architecture.md's diagram that no pom declares").isEmpty();
    }

    @Test
    void shouldFindTheDiagramWhenTheRootPomListsModules() {
        assertThat(modules).as("modules in the root pom").hasSizeGreaterThan(10);
        assertThat(drawn).as("arrows in docs/architecture.md's mermaid diagram").isNotEmpty();
    }

    private static List<String> modulesOfRootPom() throws Exception {
        Element project = pom(REPO.resolve("pom.xml"));
        List<String> found = new ArrayList<>();
        for (Element list : children(project, "modules")) {
            for (Element module : children(list, "module")) {
                found.add(module.getTextContent().trim());
            }
        }
        return found;
    }

    /** "from --> to" or "from -.-> to", by module folder. */
    private static Set<String> declaredDependencies(List<String> modules) throws Exception {
        Map<String, String> folderOfArtifact = new HashMap<>();
        for (String module : modules) {
            folderOfArtifact.put(text(pom(REPO.resolve(module).resolve("pom.xml")), "artifactId"), module);
        }
        Set<String> edges = new TreeSet<>();
        for (String module : modules) {
            for (Element dependencies : children(pom(REPO.resolve(module).resolve("pom.xml")), "dependencies")) {
                for (Element dependency : children(dependencies, "dependency")) {
                    String group = text(dependency, "groupId");
                    String target = folderOfArtifact.get(text(dependency, "artifactId"));
                    String scope = text(dependency, "scope");
                    boolean ours = GROUP.equals(group) || "${project.groupId}".equals(group);
                    if (!ours || target == null || "test".equals(scope)) {
                        continue;
                    }
                    edges.add(module + ("provided".equals(scope) ? " -.-> " : " --> ") + target);
                }
            }
        }
        return edges;
    }

    private static Set<String> diagramEdges(List<String> modules) throws Exception {
        String page = Files.readString(ARCHITECTURE);
        int start = page.indexOf("```mermaid");
        assertThat(start).as("a ```mermaid block in docs/architecture.md").isNotNegative();
        String diagram = page.substring(start, page.indexOf("```", start + 3));
        Map<String, String> folderOfNode = new HashMap<>();
        for (String module : modules) {
            folderOfNode.put(module, module); // a bare id names the module of that folder (e.g. `auth`)
        }
        Matcher labelled = LABELLED.matcher(diagram);
        while (labelled.find()) {
            folderOfNode.put(labelled.group(1), labelled.group(2).replaceFirst(" \\(.*$", "").trim());
        }
        Set<String> edges = new TreeSet<>();
        for (String line : diagram.split("\n")) {
            Matcher edge = EDGE.matcher(line);
            if (!edge.matches()) {
                continue;
            }
            String from = folderOf(folderOfNode, edge.group(1), line);
            for (String to : edge.group(3).split("&")) {
                edges.add(from + " " + edge.group(2) + " " + folderOf(folderOfNode, to.trim(), line));
            }
        }
        return edges;
    }

    private static String folderOf(Map<String, String> folderOfNode, String id, String line) {
        String folder = folderOfNode.get(id);
        assertThat(folder).as("node '" + id + "' in \"" + line.trim() + "\" names no module of the root pom").isNotNull();
        assertThat(modules).as("node '" + id + "' is labelled with a folder that is no module").contains(folder);
        return folder;
    }

    private static Element pom(Path file) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile()).getDocumentElement();
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                found.add(e);
            }
        }
        return found;
    }

    private static String text(Element parent, String name) {
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0).getTextContent().trim();
    }
}
