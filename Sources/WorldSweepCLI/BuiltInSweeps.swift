import WorldSweepScene
import WorldSweepRun

/// Sweeps built into the binary, so `bench` runs anywhere without a checkout.
enum BuiltInSweeps {
    static let twinDropYAML = """
        name: twin-drop
        description: two views fall; the bottom one is far more elastic
        world: {bounds: [320, 568], tick: 1/60, duration: 5}
        items:
          top:    {center: [60, 30],  size: [50, 50]}
          bottom: {center: [220, 50], size: [50, 50]}
        behaviors:
          fall: {type: gravity, items: [top, bottom]}
          walls:
            type: collision
            items: [top, bottom]
            mode: everything
            reference_bounds: true
            boundaries:
              ledge: {from: [0, 468], to: [320, 468]}
          bouncy: {type: item, items: [bottom], elasticity: 0.9}
          stiff:  {type: item, items: [top], elasticity: 0.1}
          shove:  {type: push, items: [top], mode: continuous, magnitude: 0.5, angle: 0}
        sweep:
          parameters:
            bouncy.elasticity: {linspace: [0, 1, 16]}
            bouncy.density:    {values: [0.5, 1, 2]}
            shove.magnitude:   {range: [0, 1.5, 0.1]}
          seed: 42
          replicas: 1
          jitter: {top.center: [2, 2]}
        """

    static func twinDrop() throws -> SceneFile {
        try SceneFile.parse(yaml: twinDropYAML, path: RunEngineCode.builtInLabel)
    }
}
