//! On a software renderer (Mesa's llvmpipe and the like: no GPU) the editor's schedules run on one
//! thread each. The renderer's rasteriser threads want every core; Bevy's multi-threaded executor
//! spreads the frame's many small systems over the same cores, and waking and parking its workers
//! costs more than running them side by side gains. Measured on the demo replay under llvmpipe on
//! 2 cores on 2026-11-25 (three runs interleaved with the build before the
//! switch): 28.8, 32.7 and 28.7 ms a frame with one thread per schedule, 35.2, 34.3 and
//! 36.3 ms with Bevy's default. With a GPU nothing changes.

use bevy::app::{First, Last, Main, PostUpdate, PreUpdate, Update};
use bevy::ecs::schedule::{
    InternedScheduleLabel, ScheduleLabel, Schedules, SingleThreadedExecutor,
};
use bevy::prelude::*;
use bevy::render::renderer::RenderAdapterInfo;
use bevy::render::{ExtractSchedule, Render, RenderApp};

use crate::EditorSet;

/// The main world's schedules that run every frame.
fn every_frame() -> [InternedScheduleLabel; 5] {
    [
        First.intern(),
        PreUpdate.intern(),
        Update.intern(),
        PostUpdate.intern(),
        Last.intern(),
    ]
}

/// Adds the switch to the main world and to the render world.
pub(super) fn add_systems(app: &mut App) {
    // Before the main schedule runs the others, so none of them is running when it is changed.
    app.add_systems(
        Main,
        when_known(every_frame().to_vec())
            .before(Main::run_main)
            .in_set(EditorSet::Setup),
    );
    if let Some(render) = app.get_sub_app_mut(RenderApp) {
        // The render schedule does not run during extraction.
        render.add_systems(
            ExtractSchedule,
            when_known(vec![Render.intern()]).in_set(EditorSet::Setup),
        );
    }
}

/// Whether the adapter is a software renderer (known once the renderer is up).
pub(super) fn is_software(adapter: &RenderAdapterInfo) -> bool {
    adapter.device_type == wgpu_types::DeviceType::Cpu
}

/// Gives each of `labels` a single-threaded executor (a schedule not made yet is made).
fn one_thread(schedules: &mut Schedules, labels: impl IntoIterator<Item = impl ScheduleLabel>) {
    for label in labels {
        schedules
            .entry(label)
            .set_executor(SingleThreadedExecutor::new());
    }
}

/// A system that, once the renderer is up, gives `labels` one thread each if it is a software
/// renderer, and then does nothing.
fn when_known(
    labels: Vec<InternedScheduleLabel>,
) -> impl FnMut(Option<Res<RenderAdapterInfo>>, ResMut<Schedules>, Local<bool>) {
    move |adapter, mut schedules, mut done| {
        let Some(adapter) = adapter.filter(|_| !*done) else {
            return;
        };
        *done = true;
        if is_software(&adapter) {
            one_thread(&mut schedules, labels.iter().copied());
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::sync::{Arc, Mutex};
    use std::thread::ThreadId;

    use super::*;

    #[test]
    fn schedules_on_one_thread_run_every_system_on_the_thread_that_runs_the_frame() {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        let seen: Arc<Mutex<HashSet<ThreadId>>> = Arc::default();
        for _ in 0..8 {
            let (in_update, in_post_update) = (seen.clone(), seen.clone());
            app.add_systems(Update, move || {
                in_update
                    .lock()
                    .expect("no system panicked")
                    .insert(std::thread::current().id());
            });
            app.add_systems(PostUpdate, move || {
                in_post_update
                    .lock()
                    .expect("no system panicked")
                    .insert(std::thread::current().id());
            });
        }
        one_thread(
            &mut app.world_mut().resource_mut::<Schedules>(),
            every_frame(),
        );
        for _ in 0..5 {
            app.update();
        }
        let seen = seen.lock().expect("no system panicked");
        assert_eq!(*seen, HashSet::from([std::thread::current().id()]));
    }

    fn adapter(device_type: wgpu_types::DeviceType) -> RenderAdapterInfo {
        RenderAdapterInfo(bevy::render::renderer::WgpuWrapper::new(
            wgpu_types::AdapterInfo {
                name: "test adapter".into(),
                vendor: 0,
                device: 0,
                device_type,
                device_pci_bus_id: String::new(),
                driver: String::new(),
                driver_info: String::new(),
                backend: wgpu_types::Backend::Vulkan,
                subgroup_min_size: 8,
                subgroup_max_size: 8,
                transient_saves_memory: false,
            },
        ))
    }

    #[test]
    fn only_a_cpu_adapter_is_a_software_renderer() {
        use wgpu_types::DeviceType;
        assert!(is_software(&adapter(DeviceType::Cpu)));
        for gpu in [
            DeviceType::DiscreteGpu,
            DeviceType::IntegratedGpu,
            DeviceType::VirtualGpu,
            DeviceType::Other,
        ] {
            assert!(!is_software(&adapter(gpu)), "{gpu:?}");
        }
    }

    #[test]
    fn the_switch_waits_for_the_adapter_then_gives_a_software_renderer_one_thread() {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        let seen: Arc<Mutex<HashSet<ThreadId>>> = Arc::default();
        for _ in 0..16 {
            let seen = seen.clone();
            app.add_systems(Update, move || {
                // Long enough that the executor has every reason to spread the systems.
                std::thread::sleep(std::time::Duration::from_micros(200));
                seen.lock()
                    .expect("no system panicked")
                    .insert(std::thread::current().id());
            });
        }
        app.add_systems(
            Main,
            when_known(every_frame().to_vec()).before(Main::run_main),
        );
        // No adapter yet: nothing is decided (the frame runs as Bevy runs it).
        app.update();
        app.insert_resource(adapter(wgpu_types::DeviceType::Cpu));
        app.update();
        seen.lock().expect("no system panicked").clear();
        for _ in 0..5 {
            app.update();
        }
        let seen = seen.lock().expect("no system panicked");
        assert_eq!(*seen, HashSet::from([std::thread::current().id()]));
    }
}
